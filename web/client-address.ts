import { isIP } from 'node:net';

/**
 * The client's address as limits count it: the one Koa read (`ctx.ip`, from X-Forwarded-For when TRUST_PROXY
 * trusts proxies), without a port a proxy may have written with it (`203.0.113.7:5123`, `[2001:db8::1]:443`);
 * an entry that is no address at all falls back to the peer's, so junk never pools clients in one bucket.
 */
export function clientAddress(ip: string, peer: string): string {
  const entry = ip.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  const address = bracketed?.[1] ?? v4WithPort?.[1] ?? entry;
  return isIP(address.replace(/%.*$/, '')) ? address : peer;
}

/**
 * The bucket a client address is limited in. An IPv4 address is its own; an IPv6 client holds a whole /64
 * (RFC 6177: one per site), so every address in it shares one budget, or a client could take a fresh budget
 * per request. An IPv4 address written as IPv6 (`::ffff:192.0.2.1`, Node's dual-stack sockets, in any of
 * IPv6's forms) is the IPv4 one. Anything else (no address at all) is one bucket, `unknown`.
 */
export function addressBucket(ip: string): string {
  const address = ip.replace(/%.*$/, '').toLowerCase();
  if (isIP(address) === 4) return address;
  if (isIP(address) !== 6) return 'unknown';
  const groups = expandedGroups(address);
  // IPv4-mapped, however it is written (`::ffff:192.0.2.1`, `::ffff:c000:201`, `0:0:0:0:0:ffff:192.0.2.1`):
  // read as a /64 it fell in ::/64 with `::1` and every other mapped address, one budget for all of them.
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const [high, low] = [parseInt(groups[6], 16), parseInt(groups[7], 16)];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, each without leading zeros (an embedded IPv4 tail counts as two). */
function expandedGroups(address: string): string[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const groupsOf = (part: string | undefined) => (part ? part.split(':').flatMap(ipv4Tail) : []);
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const middle = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16).toString(16));
}

const ipv4Tail = (group: string): string[] => {
  if (!group.includes('.')) return [group];
  const [a, b, c, d] = group.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
};
