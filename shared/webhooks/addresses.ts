/**
 * Which addresses a webhook may reach (the SSRF rule). A receiver is a public server: an address inside a
 * private network, this host, a link-local range or a cloud's metadata service is refused unless the service
 * allows private addresses (WEBHOOK_ALLOW_PRIVATE, for development and tests). Metadata is refused always:
 * it hands out the host's cloud credentials.
 */

export type AddressKind = 'public' | 'private' | 'loopback' | 'link-local' | 'metadata' | 'reserved';

/** The four bytes of a dotted IPv4 address, or null. */
function ipv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail included), or null. */
function ipv6(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!address.includes(':')) return null;
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (let i = 0; i < parts.length; i++) {
      const tail = i === parts.length - 1 ? ipv4(parts[i]) : null;
      if (tail) out.push((tail[0] << 8) | tail[1], (tail[2] << 8) | tail[3]);
      else if (/^[0-9a-f]{1,4}$/i.test(parts[i])) out.push(parseInt(parts[i], 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}

function kindOfIpv4([a, b, c, d]: number[]): AddressKind {
  if (a === 169 && b === 254 && c === 169 && d === 254) return 'metadata';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private';
  // This network, IETF protocol assignments, documentation, benchmarking, multicast and the rest above 240.
  if (a === 0 || (a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 198 && (b === 18 || b === 19)) || a >= 224) return 'reserved';
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved';
  return 'public';
}

function kindOfIpv6(g: number[]): AddressKind {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible addresses are their IPv4 address.
  if (zeroUpTo(5) && (g[5] === 0xffff || (g[5] === 0 && (g[6] !== 0 || g[7] > 1)))) {
    return kindOfIpv4([g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff]);
  }
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  if (zeroUpTo(8)) return 'reserved';
  // AWS's IPv6 metadata address, fd00:ec2::254.
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return 'metadata';
  if ((g[0] & 0xfe00) === 0xfc00) return 'private';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xff00) === 0xff00 || (g[0] === 0x2001 && g[1] === 0x0db8)) return 'reserved';
  return 'public';
}

/** The kind of an IP address written as text; null when it is not an IP address (a host name). */
export function addressKind(address: string): AddressKind | null {
  const v4 = ipv4(address);
  if (v4) return kindOfIpv4(v4);
  const v6 = ipv6(address);
  return v6 ? kindOfIpv6(v6) : null;
}

/** Why a webhook may not reach an address of this kind; null when it may. */
export function refusedAddress(kind: AddressKind, allowPrivate: boolean): string | null {
  if (kind === 'public') return null;
  if (kind === 'metadata') return 'is a cloud metadata address';
  if (kind === 'reserved') return 'is a reserved address';
  return allowPrivate ? null : `is a ${kind} address`;
}

/** Why a webhook URL may not be used as written (scheme, credentials, an IP it names); null when it may. */
export function refusedUrl(text: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.protocol === 'http:' && !allowPrivate) return 'must be an https URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not have a fragment';
  const kind = addressKind(url.hostname);
  if (kind) {
    const refused = refusedAddress(kind, allowPrivate);
    return refused && `host ${url.hostname} ${refused}`;
  }
  return null;
}
