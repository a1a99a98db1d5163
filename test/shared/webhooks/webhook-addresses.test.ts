import { addressKind, refusedUrl } from '../../../shared/webhooks/addresses';
import { answerMeans, MAX_DELIVERY_ATTEMPTS, nextDeliveryTime, RETRY_DELAYS_MS } from '../../../shared/webhooks/delivery-schedule';

describe('webhook address rule', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['ff02::1', 'reserved'],
    // Metadata services beyond 169.254.169.254: Azure's wire server, the AWS ECS task endpoint, Alibaba's.
    ['168.63.129.16', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    // Addresses that carry an IPv4 address are its kind: NAT64, local-use NAT64 (at /96 and /48), 6to4, SIIT.
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::a00:1', 'private'],
    ['64:ff9b:1:a00:1:0:808:808', 'private'],
    ['64:ff9b:1::808:808', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['2002:808:808::1', 'public'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'metadata'],
    // Teredo, site-local and discard-only are refused.
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['fec0::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each(['example.com', 'localhost', '1.2.3', '01.2.3.4', '256.1.1.1', '1::2::3', 'gggg::1', '1:2:3:4:5:6:7:8:9'])(
    '%s is no IP address',
    (text) => {
      expect(addressKind(text)).toBeNull();
    },
  );

  it('allows private addresses and plain http only when told, and metadata never', () => {
    expect(refusedUrl('http://10.0.0.1/x', false)).toBe('must be an https URL');
    expect(refusedUrl('https://10.0.0.1/x', false)).toBe('host 10.0.0.1 is not allowed: it is a private address');
    expect(refusedUrl('https://[64:ff9b::a00:1]/x', false)).toBe('host [64:ff9b::a00:1] is not allowed: it is a private address');
    expect(refusedUrl('http://10.0.0.1/x', true)).toBeNull();
    expect(refusedUrl('http://127.0.0.1:3000/x', true)).toBeNull();
    expect(refusedUrl('http://[::1]:3000/x', true)).toBeNull();
    expect(refusedUrl('http://169.254.169.254/', true)).toBe('host 169.254.169.254 is not allowed: it is a cloud metadata address');
    expect(refusedUrl('http://100.100.100.200/', true)).toBe('host 100.100.100.200 is not allowed: it is a cloud metadata address');
    expect(refusedUrl('https://hooks.example.com/x', false)).toBeNull();
    expect(refusedUrl('https://u:p@hooks.example.com/x', false)).toBe('must not carry credentials');
    expect(refusedUrl('https://hooks.example.com/x#y', false)).toBe('must not have a fragment');
    expect(refusedUrl('hooks.example.com/x', false)).toBe('must be an absolute URL');
  });

  it('allows only ports 443 and 80, unless private addresses are allowed', () => {
    expect(refusedUrl('https://hooks.example.com:443/x', false)).toBeNull();
    expect(refusedUrl('https://hooks.example.com:80/x', false)).toBeNull();
    expect(refusedUrl('https://hooks.example.com:8443/x', false)).toBe('is not allowed: use port 443 (or 80)');
    expect(refusedUrl('https://hooks.example.com:22/x', false)).toBe('is not allowed: use port 443 (or 80)');
    expect(refusedUrl('http://localhost:3000/x', true)).toBeNull();
  });
});

describe('webhook delivery schedule', () => {
  it('spreads its tries over a little more than three days', () => {
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(3 * 86_400_000);
    expect(total).toBeLessThan(3.5 * 86_400_000);
    expect(MAX_DELIVERY_ATTEMPTS).toBe(RETRY_DELAYS_MS.length + 1);
    expect(nextDeliveryTime(1, 1_000)).toBe(6_000);
    expect(nextDeliveryTime(MAX_DELIVERY_ATTEMPTS - 1, 0)).toBe(RETRY_DELAYS_MS.at(-1));
    expect(nextDeliveryTime(MAX_DELIVERY_ATTEMPTS, 0)).toBeNull();
  });

  it('counts a 2xx as delivered, 410 as gone, and anything else as a retry', () => {
    expect([200, 204, 299, 410, 301, 400, 404, 500].map(answerMeans)).toEqual([
      'delivered',
      'delivered',
      'delivered',
      'gone',
      'retry',
      'retry',
      'retry',
      'retry',
    ]);
  });
});
