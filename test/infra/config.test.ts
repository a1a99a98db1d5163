import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig, ConfigError } from '../../infra/config';

const base = { MONGODB_URI: 'mongodb://127.0.0.1:27017' };

describe('loadConfig', () => {
  it('applies defaults', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({
      PORT: 3000,
      ROLE: 'all',
      BODY_LIMIT: '1mb',
      TEMPORAL_ADDRESS: 'localhost:7233',
      TEMPORAL_NAMESPACE: 'default',
    });
    expect(c.PUBLIC_BASE_URL).toBe('http://localhost:3000');
  });

  it('converts numbers and booleans from strings', () => {
    const c = loadConfig({ ...base, PORT: '8080', TEMPORAL_TLS: 'true', PUBLIC_BASE_URL: 'https://x.example/' });
    expect(c.PORT).toBe(8080);
    expect(c.TEMPORAL_TLS).toBe(true);
    expect(c.PUBLIC_BASE_URL).toBe('https://x.example');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ ROLE: 'both' }, 'ROLE'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ BODY_LIMIT: '1gb' }, 'BODY_LIMIT'],
    [{ MONGODB_URI: 'postgres://x' }, 'MONGODB_URI'],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
  ])('rejects %j naming %s', (env, name) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    try {
      loadConfig({ ...base, ...env });
    } catch (err) {
      expect((err as ConfigError).problems.some((p) => p.startsWith(name))).toBe(true);
    }
  });

  it('names every setting a chosen provider needs, and accepts the providers once they are given', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ VOICE_PROVIDER: 'vapi', EMAIL_PROVIDER: 'sendgrid' })).toEqual([
      'SENDGRID_API_KEY is required when EMAIL_PROVIDER=sendgrid',
      'VAPI_API_KEY is required when VOICE_PROVIDER=vapi',
      'VAPI_PHONE_NUMBER_ID is required when VOICE_PROVIDER=vapi',
      'VAPI_WEBHOOK_SECRET is required when VOICE_PROVIDER=vapi',
    ]);
    expect(problems({ WHATSAPP_PROVIDER: 'cloud', WHATSAPP_ACCESS_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '1' })).toEqual([
      'WHATSAPP_BUSINESS_ACCOUNT_ID is required when WHATSAPP_PROVIDER=cloud',
      'WHATSAPP_APP_SECRET is required when WHATSAPP_PROVIDER=cloud',
      'WHATSAPP_VERIFY_TOKEN is required when WHATSAPP_PROVIDER=cloud',
    ]);
    expect(problems({ WHATSAPP_API_VERSION: '21' })).toEqual([expect.stringMatching(/^WHATSAPP_API_VERSION="21"/)]);
    const c = loadConfig({
      ...base,
      VOICE_PROVIDER: 'vapi',
      VAPI_API_KEY: 'k',
      VAPI_PHONE_NUMBER_ID: 'p',
      VAPI_WEBHOOK_SECRET: 's',
      WHATSAPP_PROVIDER: 'cloud',
      WHATSAPP_ACCESS_TOKEN: 't',
      WHATSAPP_PHONE_NUMBER_ID: '1',
      WHATSAPP_BUSINESS_ACCOUNT_ID: '2',
      WHATSAPP_APP_SECRET: 'a',
      WHATSAPP_VERIFY_TOKEN: 'v',
    });
    expect(c).toMatchObject({
      VAPI_BASE_URL: 'https://api.vapi.ai',
      WHATSAPP_BASE_URL: 'https://graph.facebook.com',
      WHATSAPP_API_VERSION: 'v21.0',
      WHATSAPP_TEMPLATE_CACHE_SECONDS: 300,
    });
  });

  it('requires MONGODB_URI and never echoes secrets', () => {
    expect(() => loadConfig({})).toThrow(/MONGODB_URI is required/);
    expect(() => loadConfig({ MONGODB_URI: 'http://user:hunter2@host' })).toThrow(/MONGODB_URI=<redacted>/);
  });

  it('requires the TLS certificate and key together', () => {
    expect(() => loadConfig({ ...base, TEMPORAL_TLS_CERT_PATH: '/x.pem' })).toThrow(/TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH/);
  });
});

describe('service start-up', () => {
  it('stops with exit code 1 and a message naming the bad variable', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '../../main.ts')], {
      env: { PATH: process.env.PATH, MONGODB_URI: 'mongodb://127.0.0.1:1', PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('Invalid configuration');
    expect(res.stderr).toMatch(/PORT="not-a-port"/);
  });
});
