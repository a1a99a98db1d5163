import { FormatRegistry } from '@sinclair/typebox';
import { findHyperlink, isPersonName } from './jobs/hyperlinks';
import { CANDIDATE_ZONES, isTimeZone } from './contact/time-zone-names';

/** The string formats the request schemas use, registered once for every TypeBox validator. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// RFC 3339 / ISO 8601 with a time zone: 2026-11-23T09:30:00Z, 2026-11-23T09:30:00.5+02:00.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

export function registerFormats(): void {
  if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (v) => v.length <= 254 && EMAIL.test(v));
  if (!FormatRegistry.Has('no-hyperlinks')) FormatRegistry.Set('no-hyperlinks', (v) => findHyperlink(v) === null);
  if (!FormatRegistry.Has('person-name')) FormatRegistry.Set('person-name', isPersonName);
  if (!FormatRegistry.Has('time-zone')) FormatRegistry.Set('time-zone', isTimeZone);
  if (!FormatRegistry.Has('hours-zone')) FormatRegistry.Set('hours-zone', (v) => v === CANDIDATE_ZONES || isTimeZone(v));
  if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));
}

registerFormats();

/** E.164: a plus, a non-zero country digit, at most 15 digits in all. */
export const E164_PATTERN = '^\\+[1-9][0-9]{1,14}$';

/** A candidate's own zone: calls and the calling window go by its local time (docs/contact-rules.md). */
export const TimeZoneField = {
  format: 'time-zone',
  maxLength: 64,
  description:
    "The candidate's IANA time zone, such as America/Chicago. Without it, the zones of the phone number's region are used, else the workspace's default_timezone.",
  errorMessage: 'must be an IANA time zone name such as America/Chicago',
} as const;
