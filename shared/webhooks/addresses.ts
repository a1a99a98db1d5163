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

/**
 * Cloud metadata services, which hand out the host's credentials: AWS, GCP, Azure and others at
 * 169.254.169.254, Azure's wire server 168.63.129.16, the AWS ECS task endpoint 169.254.170.2, Alibaba's
 * 100.100.100.200.
 */
const METADATA_IPV4 = ['169.254.169.254', '168.63.129.16', '169.254.170.2', '100.100.100.200'];

function kindOfIpv4([a, b, c, d]: number[]): AddressKind {
  if (METADATA_IPV4.includes(`${a}.${b}.${c}.${d}`)) return 'metadata';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private';
  // This network, IETF protocol assignments, documentation, benchmarking, multicast and the rest above 240.
  if (a === 0 || (a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 198 && (b === 18 || b === 19)) || a >= 224) return 'reserved';
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved';
  return 'public';
}

const v4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];

/** The stricter of two kinds: an address read two ways is refused if either way is. */
const stricter = (a: AddressKind, b: AddressKind): AddressKind => (a === 'public' ? b : b === 'metadata' ? b : a);

function kindOfIpv6(g: number[]): AddressKind {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // Addresses that carry an IPv4 address reach it, so they are its kind: IPv4-mapped (::ffff:a.b.c.d),
  // IPv4-compatible (::a.b.c.d), SIIT's IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96, and the
  // local-use 64:ff9b:1::/48, read at the /96 and the /48 positions of RFC 6052) and 6to4 (2002::/16).
  if (zeroUpTo(5) && (g[5] === 0xffff || (g[5] === 0 && (g[6] !== 0 || g[7] > 1)))) return kindOfIpv4(v4(g[6], g[7]));
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return kindOfIpv4(v4(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return kindOfIpv4(v4(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) {
    const at96 = kindOfIpv4(v4(g[6], g[7]));
    const at48 = kindOfIpv4([g[3] >> 8, g[3] & 0xff, g[4] & 0xff, g[5] >> 8]);
    // Whichever position holds an address, the other is zeros; with both filled, the stricter reading counts.
    if (g[3] === 0 && g[4] === 0 && g[5] === 0) return at96;
    if (g[6] === 0 && g[7] === 0) return at48;
    return stricter(at96, at48);
  }
  if (g[0] === 0x2002) return kindOfIpv4(v4(g[1], g[2]));
  // Teredo (2001::/32) hides its IPv4 addresses, site-local (fec0::/10) is deprecated, 100::/64 discards.
  if ((g[0] === 0x2001 && g[1] === 0) || (g[0] & 0xffc0) === 0xfec0 || (g[0] === 0x100 && g.slice(1, 4).every((x) => x === 0))) {
    return 'reserved';
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

/** The ports a webhook may use: https's and http's, unless private addresses are allowed (local receivers). */
const WEB_PORTS = ['', '443', '80'];

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
    // The caller wrote this address, so saying what it is tells them nothing new.
    const refused = refusedAddress(kind, allowPrivate);
    if (refused) return `host ${url.hostname} is not allowed: it ${refused}`;
  }
  if (!allowPrivate && !WEB_PORTS.includes(url.port)) return 'is not allowed: use port 443 (or 80)';
  return null;
}
