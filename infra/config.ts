import { Value } from '@sinclair/typebox/value';
import { ConfigSchema, type Config, type RawConfig } from './config-schema';

// The settings are declared in config-schema.ts; this reads them from the environment and checks each.
export { ConfigSchema, type Config, type RawConfig };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const names = Object.keys(ConfigSchema.properties) as (keyof RawConfig)[];

/**
 * Settings read under a name they had before, each beside its new one (a setting's name is a promise too): the
 * old name still works, and the two given with different values is an error rather than a silent choice.
 * CONTACT_HASH_SECRET(S) were PERSON_HASH_SECRET(S)' names until 2026-11-27.
 */
const EARLIER_NAMES: Partial<Record<keyof RawConfig, string>> = {
  PERSON_HASH_SECRET: 'CONTACT_HASH_SECRET',
  PERSON_HASH_SECRETS: 'CONTACT_HASH_SECRETS',
};

/** The value of `name` in `env`, or of its earlier name; a problem when both are given and differ. */
function named(env: NodeJS.ProcessEnv, name: keyof RawConfig, problems: string[]): string | undefined {
  const value = env[name] === '' ? undefined : env[name];
  const earlier = EARLIER_NAMES[name];
  const before = earlier && env[earlier] !== '' ? env[earlier] : undefined;
  if (value !== undefined && before !== undefined && value !== before)
    problems.push(`${earlier} and ${name} differ: set ${name} alone (${earlier} is its earlier name)`);
  return value ?? before;
}

/** Reads, converts and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, as in most twelve-factor tooling.
  const picked: Record<string, string> = {};
  const renamed: string[] = [];
  for (const name of names) {
    const value = named(env, name, renamed);
    if (value !== undefined) picked[name] = value;
  }
  if (renamed.length > 0) throw new ConfigError(renamed);
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, picked));
  const problems = [...Value.Errors(ConfigSchema, converted)].map((e) => {
    const name = e.path.replace(/^\//, '');
    const given = picked[name];
    return given === undefined ? `${name} is required` : `${name}=${isSecret(name) ? '<redacted>' : JSON.stringify(given)}: ${e.message}`;
  });
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  const config = converted as RawConfig;
  const secrets = personSecretProblems(config, env);
  if (secrets.length > 0) throw new ConfigError(secrets);
  if (Boolean(config.TEMPORAL_TLS_CERT_PATH) !== Boolean(config.TEMPORAL_TLS_KEY_PATH)) {
    throw new ConfigError(['TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together']);
  }
  const missing = [
    ...requiredFor(config, 'EMAIL_PROVIDER', 'sendgrid', ['SENDGRID_API_KEY']),
    ...requiredFor(config, 'REALTIME_PROVIDER', 'openai', ['OPENAI_API_KEY']),
    ...requiredFor(config, 'VOICE_PROVIDER', 'vapi', ['VAPI_API_KEY', 'VAPI_PHONE_NUMBER_ID', 'VAPI_WEBHOOK_SECRET']),
    ...requiredFor(config, 'WHATSAPP_PROVIDER', 'cloud', [
      'WHATSAPP_ACCESS_TOKEN',
      'WHATSAPP_PHONE_NUMBER_ID',
      'WHATSAPP_BUSINESS_ACCOUNT_ID',
      'WHATSAPP_APP_SECRET',
      'WHATSAPP_VERIFY_TOKEN',
    ]),
  ];
  if (missing.length > 0) throw new ConfigError(missing);
  const publicBaseUrl = (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return {
    ...config,
    PUBLIC_BASE_URL: publicBaseUrl,
    COOKIE_SECURE: config.COOKIE_SECURE ?? publicBaseUrl.startsWith('https:'),
    METRICS_PORT: config.METRICS_PORT ?? (config.ROLE === 'worker' ? 9465 : 9464),
    TRUST_PROXY: proxyHops(config.TRUST_PROXY),
  };
}

/** The settings a chosen provider cannot work without, as problems naming each one missing. */
function requiredFor(config: RawConfig, setting: keyof RawConfig, value: string, names: (keyof RawConfig)[]): string[] {
  if (config[setting] !== value) return [];
  return names.filter((n) => !config[n]).map((n) => `${n} is required when ${setting}=${value}`);
}

/** TRUST_PROXY as a number of hops: `true` (the setting of earlier releases) is one proxy, `false` none. */
function proxyHops(value: string): number {
  return value === 'true' ? 1 : value === 'false' ? 0 : Number(value);
}

/**
 * The person hash secrets' rules: one setting or the other, well formed, and one of them in production (the
 * image sets NODE_ENV=production), since without it the keys would be the database's own.
 */
function personSecretProblems(config: RawConfig, env: NodeJS.ProcessEnv): string[] {
  if (config.PERSON_HASH_SECRET && config.PERSON_HASH_SECRETS) return ['set PERSON_HASH_SECRET or PERSON_HASH_SECRETS, not both'];
  const problems = secretsProblems(config.PERSON_HASH_SECRETS);
  if (problems.length > 0) return problems;
  if (env.NODE_ENV === 'production' && !config.PERSON_HASH_SECRET && !config.PERSON_HASH_SECRETS)
    return ['PERSON_HASH_SECRET is required in production (at least 32 random characters; docs/security.md)'];
  return [];
}

/** What is wrong with PERSON_HASH_SECRETS, for the configuration's errors; empty when nothing is. */
export function secretsProblems(value: string | undefined): string[] {
  if (!value) return [];
  const items = value.split(',').map((i) => i.trim());
  const versions = items.map((i) => /^([1-9][0-9]{0,5}):(.{32,})$/.exec(i)?.[1]);
  if (versions.some((v) => v === undefined))
    return [
      'PERSON_HASH_SECRETS=<redacted>: must be version:secret items, comma-separated, newest first (version ≥ 1, secret ≥ 32 characters)',
    ];
  if (new Set(versions).size !== versions.length) return ['PERSON_HASH_SECRETS=<redacted>: a version appears twice'];
  return [];
}

export function isSecret(name: string): boolean {
  return /KEY|SECRET|TOKEN|PASSWORD/.test(name) || name === 'MONGODB_URI';
}
