import { IANAZone } from 'luxon';

/** Time zone names as requests give them (the zone arithmetic is working hours': shared/calls/working-hours.ts). */

/** What working_hours.timezone may say besides an IANA name: each candidate's own zones. */
export const CANDIDATE_ZONES = 'candidate';

/** A name such as America/Chicago or UTC; offsets (+02:00) and abbreviations (EST) are not zones of a place. */
const ZONE_NAME = /^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+)$/;

/**
 * Whether `name` is a zone the runtime knows. The name is kept as given: ICU would spell some zones by their
 * older aliases (America/Argentina/Buenos_Aires as America/Buenos_Aires), and a caller should see its own.
 */
export function isTimeZone(name: string): boolean {
  return name.length <= 64 && ZONE_NAME.test(name) && IANAZone.isValidZone(name);
}
