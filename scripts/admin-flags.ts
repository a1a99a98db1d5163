import type { WorkspaceNumbers, WorkspaceSettings } from '../infra/documents/workspaces';
import { PHONE_NUMBER_ID, parseEmailFrom } from '../shared/workspaces/numbers';
import { callingWindowProblem } from '../shared/contact/zones';
import { isTimeZone } from '../shared/contact/time-zone-names';

// What the admin CLI's options (scripts/admin.ts) mean, checked before anything is written.

/** A command or option given wrong: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export function required(values: Record<string, string | undefined>, ...names: string[]): string[] {
  const missing = names.filter((n) => !values[n]?.trim());
  if (missing.length) throw new UsageError(`missing ${missing.map((n) => `--${n}`).join(', ')}`);
  return names.map((n) => values[n]!.trim());
}

/** --calling-window 08:00-21:00 (or off) and --default-timezone, checked as PATCH /workspace checks them. */
export function contactSettings(window: string | undefined, zone: string | undefined): WorkspaceSettings {
  const settings: WorkspaceSettings = {};
  if (window !== undefined) {
    const [start, end, ...more] = window.split('-');
    const parsed = { start: start ?? '', end: end ?? '' };
    const problem = window === 'off' ? null : more.length > 0 || !end ? 'takes HH:MM-HH:MM or off' : callingWindowProblem(parsed);
    if (problem) throw new UsageError(`--calling-window ${problem}`);
    settings.calling_window = window === 'off' ? null : parsed;
  }
  if (zone !== undefined) {
    if (!isTimeZone(zone)) throw new UsageError('--default-timezone takes an IANA time zone name such as America/Chicago');
    settings.default_timezone = zone;
  }
  return settings;
}

/** --vapi-phone-number-id, --whatsapp-phone-number-id and --email-from; `default` gives the service's back. */
export function numbersOf(values: Record<string, string | undefined>): WorkspaceNumbers {
  const numbers: WorkspaceNumbers = {};
  const given = (flag: string) => {
    const v = values[flag]?.trim();
    return v === undefined ? undefined : v === 'default' ? null : v;
  };
  for (const [flag, kind] of [
    ['vapi-phone-number-id', 'voice'],
    ['whatsapp-phone-number-id', 'whatsapp'],
  ] as const) {
    const id = given(flag);
    if (id && !PHONE_NUMBER_ID.test(id))
      throw new UsageError(`--${flag} takes the provider's phone number id (letters, digits, . _ : -) or default`);
    if (id !== undefined) numbers[kind] = id;
  }
  const from = given('email-from');
  if (from !== undefined) {
    const parsed = from === null ? null : parseEmailFrom(from);
    if (parsed === null && from !== null) throw new UsageError('--email-from takes "Name <address>", an address, or default');
    numbers.email_from = parsed;
  }
  return numbers;
}

/**
 * The service's own numbers (VAPI_PHONE_NUMBER_ID, WHATSAPP_PHONE_NUMBER_ID) belong to every workspace without
 * numbers of its own: given to one workspace, its calls and STOP replies would reach that workspace alone.
 */
export function refuseServiceNumbers(numbers: WorkspaceNumbers): void {
  const service = { voice: process.env.VAPI_PHONE_NUMBER_ID?.trim(), whatsapp: process.env.WHATSAPP_PHONE_NUMBER_ID?.trim() };
  for (const [kind, option, name] of [
    ['voice', '--vapi-phone-number-id', 'VAPI_PHONE_NUMBER_ID'],
    ['whatsapp', '--whatsapp-phone-number-id', 'WHATSAPP_PHONE_NUMBER_ID'],
  ] as const) {
    if (service[kind] && numbers[kind] === service[kind])
      throw new UsageError(
        `${option}: that is the service's own number (${name}), used by every workspace without one; give the workspace a number of its own, or default`,
      );
  }
}
