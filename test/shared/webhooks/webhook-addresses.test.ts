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
    expect(refusedUrl('https://10.0.0.1/x', false)).toBe('host 10.0.0.1 is a private address');
    expect(refusedUrl('http://10.0.0.1/x', true)).toBeNull();
    expect(refusedUrl('http://127.0.0.1:3000/x', true)).toBeNull();
    expect(refusedUrl('http://[::1]:3000/x', true)).toBeNull();
    expect(refusedUrl('http://169.254.169.254/', true)).toBe('host 169.254.169.254 is a cloud metadata address');
    expect(refusedUrl('https://hooks.example.com/x', false)).toBeNull();
    expect(refusedUrl('https://u:p@hooks.example.com/x', false)).toBe('must not carry credentials');
    expect(refusedUrl('https://hooks.example.com/x#y', false)).toBe('must not have a fragment');
    expect(refusedUrl('hooks.example.com/x', false)).toBe('must be an absolute URL');
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
