import type { Database } from '../infra/database';
import { AshbyApiKeyBody, PARTNER_ATS, PartnerCredentialCreate, type PartnerAts } from '../shared/partners/schema';
import { compileValidator } from '../shared/validation';
import { ValidationError } from '../shared/errors';
import { credentialView, partnerKeyStore } from '../stores/partner-keys';
import { configuredSecrets } from '../stores/person-keys';
import { UsageError, required } from './admin-flags';

// The admin CLI's commands for the ATS doors (docs/ats/): what a workspace admin does with
// POST|GET|DELETE /partners/{ats}/credentials and PUT /partners/ashby/api-key, for an operator without the API.

export const PARTNER_COMMANDS = [
  'partner-credentials:create',
  'partner-credentials:list',
  'partner-credentials:revoke',
  'partners:ashby-api-key',
] as const;
export type PartnerCommand = (typeof PARTNER_COMMANDS)[number];

export const PARTNER_USAGE = `  partner-credentials:create --workspace <workspace_id> --ats greenhouse|ashby [--replace-after-hours <1-720>]
  partner-credentials:list --workspace <workspace_id> --ats greenhouse|ashby
  partner-credentials:revoke --workspace <workspace_id> --ats greenhouse|ashby --id <pcr_…>
  partners:ashby-api-key --workspace <workspace_id>   reads the customer's Ashby API key from stdin`;

export const PARTNER_OPTIONS = {
  ats: { type: 'string' },
  'replace-after-hours': { type: 'string' },
} as const;

const validateCredential = compileValidator(PartnerCredentialCreate);
const validateAshbyKey = compileValidator(AshbyApiKeyBody);

/** What the API's own schema says of a value (shared/partners/schema.ts), as a usage error. */
function checked<T>(validate: (v: unknown) => T, value: unknown): T {
  try {
    return validate(value);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw new UsageError(err.issues.map((i) => `--${i.path.join('.').replace(/_/g, '-') || 'value'} ${i.message}`).join('; '));
  }
}

function atsOf(value: string | undefined): PartnerAts {
  if (!PARTNER_ATS.includes(value as PartnerAts)) throw new UsageError(`--ats takes ${PARTNER_ATS.join(' or ')}`);
  return value as PartnerAts;
}

/** The first line of stdin: a key given there stays out of the shell's history and the process list. */
async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n') || text.length > 1_000) break;
  }
  return text.split('\n')[0].trim();
}

/**
 * Runs one of PARTNER_COMMANDS. The keys are shown once, by create; the Ashby API key is sealed under the
 * service's PERSON_HASH_SECRET(S) (`secrets`), as the API seals it, and only its last four characters are printed.
 */
export async function runPartnerCommand(
  command: PartnerCommand,
  values: Record<string, string | undefined>,
  db: Database,
  secrets: () => Parameters<typeof configuredSecrets>[0],
): Promise<unknown> {
  const [workspace] = required(values, 'workspace');
  if (!(await db.shared.workspace(workspace))) throw new Error('no such workspace');
  const keys = partnerKeyStore(db, configuredSecrets(secrets()));
  switch (command) {
    case 'partner-credentials:create': {
      const ats = atsOf(values.ats);
      const hours = values['replace-after-hours'];
      const { replace_after_hours } = checked(validateCredential, hours === undefined ? {} : { replace_after_hours: Number(hours) });
      const { key, doc } = await keys.create(workspace, ats, replace_after_hours);
      return { ...credentialView(doc), key };
    }
    case 'partner-credentials:list':
      return { credentials: (await keys.list(workspace, atsOf(values.ats))).map(credentialView) };
    case 'partner-credentials:revoke': {
      const [id] = required(values, 'id');
      if (!(await keys.revoke(workspace, atsOf(values.ats), id))) throw new Error('no such credential in this workspace');
      return { revoked: true };
    }
    case 'partners:ashby-api-key': {
      const key = await firstLineOfStdin();
      const { api_key } = checked(validateAshbyKey, { api_key: key });
      await keys.putSecret(workspace, 'ashby', api_key);
      const hint = await keys.secretHint(workspace, 'ashby');
      return { set: true, last4: hint!.last4, updated_at: hint!.updated_at.toISOString() };
    }
  }
}
