import { parseArgs } from 'node:util';
import { connectDatabase } from '../infra/database';
import { adminStores, walkingStores } from '../composition/admin-stores';
import { peopleRekeying } from '../operations/people-rekeying';
import { peopleIndexing } from '../operations/people-index';
import type { WorkspaceSettings } from '../infra/documents/workspaces';
import { SERVICE } from '../stores/workspaces';
import { LONGEST_CAPACITY_WAIT_MS, MAX_CONCURRENT_CALLS_LIMIT } from '../shared/calls/capacity';
// Temporal's client, and what drives it, are imported (here, a type only) by the two commands that reach
// Temporal: the SDK and its protobufs are half a second of CPU, which every other command (a workspace:create,
// an apikey:list) would pay for nothing.
import type { Client } from '@temporalio/client';
import { loadConfig } from '../infra/config';
import { devPersonHashSecret } from './dev-secret';
import { UsageError, contactSettings, numbersOf, refuseServiceNumbers, required } from './admin-flags';
import { provisioned } from './services';
import { join } from 'node:path';
import { PARTNER_COMMANDS, PARTNER_OPTIONS, PARTNER_USAGE, runPartnerCommand, type PartnerCommand } from './admin-partners';

/**
 * Admin CLI. Each command prints one JSON line on stdout; errors go to stderr with exit code 1 (2 for usage).
 *   workspace:create --name N --company C --sender-first-name F --sender-last-name L
 *   workspace:update --workspace ID [--interview-reminders on|off] [--max-concurrent-calls N]
 *                    [--calling-window HH:MM-HH:MM|off] [--default-timezone ZONE]
 *                    [--vapi-phone-number-id ID|default] [--whatsapp-phone-number-id ID|default]
 *                    [--email-from "Name <address>"|default]   the operator's numbers for this workspace
 *                                  (workspace:settings is its earlier name)
 *   apikey:create --workspace ID
 *   apikey:list --workspace ID
 *   apikey:revoke (--key API_KEY | --id KEY_ID)
 *   email:show --interview ID      the invitation email the log provider (EMAIL_PROVIDER=log) kept
 *   people:index [--workspace ID]   files records made before the person index, so an erasure finds them
 *   people:rekey [--workspace ID] files people's hashes again under the newest PERSON_HASH_SECRETS entry
 *   simulate:call-back --from +E164 --to NUMBER_ID [--caller-name NAME]   a candidate calling a workspace's
 *                                  number back (simulator); the caller gives NAME, by default the candidate's own
 *   partner-credentials:create|list|revoke, partners:ashby-api-key   the ATS doors' keys (scripts/admin-partners.ts)
 * MONGODB_URI defaults to the database that `npm run dev` starts. A new --max-concurrent-calls is also told to
 * the calls waiting for capacity, through Temporal at TEMPORAL_ADDRESS (the worker's settings), so it takes
 * effect within a second; the line then says how many (`waiting_calls_told`, null when Temporal was not there).
 */
const USAGE = `usage: npm run --silent admin -- <command> [options]
  workspace:create --name <name> --company <company> --sender-first-name <first> --sender-last-name <last>
  workspace:update --workspace <workspace_id> [--interview-reminders on|off] [--max-concurrent-calls <1-1000>]
                   [--calling-window <HH:MM-HH:MM>|off] [--default-timezone <IANA zone>]
                   [--vapi-phone-number-id <id>|default] [--whatsapp-phone-number-id <id>|default]
                   [--email-from "<Name> <address>"|default]
  simulate:call-back --from <+E.164> --to <voice number id> [--caller-name "<the name the caller gives>"]
  apikey:create --workspace <workspace_id>
  apikey:list --workspace <workspace_id>
  apikey:revoke --key <api_key> | --id <key_id>
  email:show --interview <interview_id>
  people:index [--workspace <workspace_id>]
  people:rekey [--workspace <workspace_id>]
${PARTNER_USAGE}`;

/**
 * Tells the workspace's calls waiting for capacity of its new cap (Temporal at TEMPORAL_ADDRESS, as the worker
 * finds it). Without Temporal, the cap is still set: each waiting call sees it at its next look, within LONGEST_CAPACITY_WAIT_MS.
 */
async function tellWaitingCalls(workspaceId: string): Promise<number | null> {
  const [{ connectClient }, { wakeCallsWaitingForCapacity }] = await Promise.all([
    import('../infra/temporal'),
    import('../composition/call-capacity'),
  ]);
  let client: Client | undefined;
  try {
    client = await connectClient(loadConfig(), 3_000);
    return await wakeCallsWaitingForCapacity(client, workspaceId);
  } catch (err) {
    process.stderr.write(
      `warning: the cap is set, but the calls waiting for capacity were not told (${(err as Error).message}); each sees it at its next look, within ${Math.ceil(LONGEST_CAPACITY_WAIT_MS / 1000)} s\n`,
    );
    return null;
  } finally {
    await client?.connection.close();
  }
}

async function run(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      company: { type: 'string' },
      'sender-first-name': { type: 'string' },
      'sender-last-name': { type: 'string' },
      workspace: { type: 'string' },
      key: { type: 'string' },
      id: { type: 'string' },
      interview: { type: 'string' },
      'interview-reminders': { type: 'string' },
      'max-concurrent-calls': { type: 'string' },
      'calling-window': { type: 'string' },
      'default-timezone': { type: 'string' },
      'vapi-phone-number-id': { type: 'string' },
      'whatsapp-phone-number-id': { type: 'string' },
      'email-from': { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      'caller-name': { type: 'string' },
      ...PARTNER_OPTIONS,
    },
    strict: true,
  });
  if (
    ![
      'workspace:create',
      'workspace:update',
      'workspace:settings',
      'apikey:create',
      'apikey:list',
      'apikey:revoke',
      'email:show',
      'people:index',
      'people:rekey',
      'simulate:call-back',
      ...PARTNER_COMMANDS,
    ].includes(command ?? '')
  ) {
    throw new UsageError(command ? `unknown command ${command}` : 'no command given');
  }
  const db = await connectDatabase(process.env.MONGODB_URI || 'mongodb://127.0.0.1:27018', process.env.MONGODB_DB || 'hiring');
  const { workspaces, providerLogs } = adminStores(db);
  try {
    if ((PARTNER_COMMANDS as readonly string[]).includes(command))
      return await runPartnerCommand(command as PartnerCommand, values, db, serviceConfig);
    switch (command) {
      case 'workspace:create': {
        const [name, company, senderFirstName, senderLastName] = required(
          values,
          'name',
          'company',
          'sender-first-name',
          'sender-last-name',
        );
        return await workspaces.create({ name, company, senderFirstName, senderLastName });
      }
      case 'workspace:update':
      case 'workspace:settings': {
        const [workspace] = required(values, 'workspace');
        const settings: WorkspaceSettings = {};
        const reminders = values['interview-reminders'];
        if (reminders !== undefined) {
          if (reminders !== 'on' && reminders !== 'off') throw new UsageError('--interview-reminders takes on or off');
          settings.interview_reminders = reminders === 'on';
        }
        const cap = values['max-concurrent-calls'];
        if (cap !== undefined) {
          if (!/^[0-9]+$/.test(cap) || Number(cap) < 1 || Number(cap) > MAX_CONCURRENT_CALLS_LIMIT) {
            throw new UsageError(`--max-concurrent-calls takes a whole number from 1 to ${MAX_CONCURRENT_CALLS_LIMIT}`);
          }
          settings.max_concurrent_calls = Number(cap);
        }
        Object.assign(settings, contactSettings(values['calling-window'], values['default-timezone']));
        const numbers = numbersOf(values);
        if (Object.keys(settings).length === 0 && Object.keys(numbers).length === 0) {
          throw new UsageError(
            'give --interview-reminders, --max-concurrent-calls, --calling-window, --default-timezone, --vapi-phone-number-id, --whatsapp-phone-number-id or --email-from',
          );
        }
        if (Object.keys(numbers).length > 0) {
          refuseServiceNumbers(numbers);
          const done = await workspaces.setNumbers(workspace, numbers);
          if ('missing' in done) throw new Error('no such workspace');
          if ('busy' in done) throw new Error("another change of this workspace's numbers is under way; try again");
          if ('taken' in done && done.by === SERVICE)
            throw new UsageError(
              `that ${done.taken} number is the service's own number, used by every workspace without one; give the workspace a number of its own, or default`,
            );
          if ('taken' in done)
            throw new Error(`that ${done.taken} number belongs to workspace ${done.by}; a number belongs to one workspace`);
        }
        if (Object.keys(settings).length > 0 && !(await workspaces.updateSettings(workspace, settings)))
          throw new Error('no such workspace');
        const shown = { workspace_id: workspace, settings, ...(Object.keys(numbers).length > 0 ? { numbers } : {}) };
        if (settings.max_concurrent_calls === undefined) return shown;
        return { ...shown, waiting_calls_told: await tellWaitingCalls(workspace) };
      }
      case 'apikey:create': {
        const [workspace] = required(values, 'workspace');
        const { api_key } = await workspaces.createKey(workspace);
        return { api_key };
      }
      case 'apikey:list': {
        const [workspace] = required(values, 'workspace');
        return { keys: await workspaces.listKeys(workspace) };
      }
      case 'people:index':
        return await peopleIndexing({ stores: walkingStores(db, serviceConfig()) })(values.workspace?.trim() || null);
      case 'people:rekey':
        return await peopleRekeying({ stores: walkingStores(db, serviceConfig()) })(values.workspace?.trim() || null);
      case 'simulate:call-back': {
        const [from, to] = required(values, 'from', 'to');
        if (!/^\+[1-9][0-9]{6,14}$/.test(from)) throw new UsageError("--from takes the caller's number in E.164, such as +14155550100");
        const config = serviceConfig();
        const [{ connectClient }, { simulateCallBack }] = await Promise.all([
          import('../infra/temporal'),
          import('../composition/call-back-simulation'),
        ]);
        const client = await connectClient(config, 3_000);
        try {
          return await simulateCallBack(config, db, client, { from, to, callerName: values['caller-name'] });
        } finally {
          await client.connection.close();
        }
      }
      case 'email:show': {
        const [interview] = required(values, 'interview');
        const mail = await providerLogs.email(interview);
        if (!mail) throw new Error('no email kept for this interview (yet); only EMAIL_PROVIDER=log keeps them');
        return { to: mail.to, from: mail.from, subject: mail.subject, text: mail.text, created_at: mail.created_at };
      }
      default: {
        if (!values.key && !values.id) throw new UsageError('apikey:revoke needs --key or --id');
        const revoked = await workspaces.revokeKey({ key: values.key, keyId: values.id });
        if (!revoked) throw new Error('no such live API key');
        return { revoked: true };
      }
    }
  } finally {
    await db.close();
  }
}

run(process.argv.slice(2)).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (err: Error) => {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`error: ${err.message}\n${usage ? `${USAGE}\n` : ''}`);
    process.exitCode = usage ? 2 : 1;
  },
);

/**
 * The service's settings, for the commands that write people's hashes: with no MONGODB_URI the database is the
 * one `npm run dev` starts, and so is the person hash secret, from its cache.
 */
function serviceConfig() {
  const env = { ...process.env };
  if (!env.MONGODB_URI && !env.PERSON_HASH_SECRET && !env.PERSON_HASH_SECRETS && !env.CONTACT_HASH_SECRET && !env.CONTACT_HASH_SECRETS) {
    env.PERSON_HASH_SECRET = devPersonHashSecret(join(provisioned().cacheDir, 'dev-data'));
  }
  return loadConfig({ MONGODB_URI: 'mongodb://127.0.0.1:27018', ...env });
}
