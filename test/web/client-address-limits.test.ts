import { startStack, uniqueName, type Stack } from '../helpers/stack';
import { LimitClock } from '../helpers/limit-clock';
import { interviewDoc, projectDoc } from '../helpers/interview-doc';
import { newId } from '../../infra/ids';
import { interviewToken } from '../../infra/documents/interviews';

/**
 * Whose budget a request spends, on the real API: the address the proxies in front wrote (TRUST_PROXY is
 * their number), an IPv6 client's /64, and, on candidates' links, the address only for links that are
 * unknown. Two API processes share one count, exactly, under concurrency.
 */
describe('client addresses and the limits they spend', () => {
  let oneProxy: Stack;
  let sameDatabase: Stack;
  let twoProxies: Stack;
  let guarded: Stack;
  beforeAll(async () => {
    const shared = { TRUST_PROXY: 'true', MONGODB_DB: uniqueName('addresses') };
    // The two APIs on one database count one limit, at one time.
    const sharedClock = new LimitClock();
    [oneProxy, twoProxies, guarded] = await Promise.all([
      startStack({ env: shared, limits: sharedClock }),
      startStack({ env: { TRUST_PROXY: '2' } }),
      startStack({ env: { TRUST_PROXY: '1', PAGE_REQUESTS_PER_MINUTE_PER_IP: '5' } }),
    ]);
    // A second API process on the same database: the limits are counted there, not in a process.
    sameDatabase = await startStack({ env: shared, limits: sharedClock });
  });
  afterAll(async () => {
    await sameDatabase?.stop();
    await Promise.all([oneProxy?.stop(), twoProxies?.stop(), guarded?.stop()]);
  });

  /** Holds the limits' clocks in a window of their own for the rest of the test, so its requests land in one window however slow the machine is. */
  const holdLimits = (windowSeconds: number) => {
    oneProxy.limits.hold(windowSeconds);
    twoProxies.limits.hold(windowSeconds);
    guarded.limits.hold(windowSeconds);
  };
  afterEach(() => {
    oneProxy?.limits.release();
    twoProxies?.limits.release();
    guarded?.limits.release();
  });

  const signIn = (stack: Stack, forwardedFor: string) =>
    fetch(`${stack.url}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
      body: 'key=nope&csrf=nope',
    });

  it('takes the address the proxy wrote, never one the client wrote before it', async () => {
    holdLimits(60);
    // The client rotates what it writes; the proxy appends the address it saw, the same each time.
    for (let i = 0; i < 10; i++) expect((await signIn(oneProxy, `10.1.2.${i}, 198.51.100.7`)).status).toBe(403);
    expect((await signIn(oneProxy, '10.1.2.99, 198.51.100.7')).status).toBe(429);
    // Naming another address (a victim's) spends the sender's own budget, nothing of the victim's.
    for (let i = 0; i < 10; i++) expect((await signIn(oneProxy, '198.51.100.9, 198.51.100.8')).status).toBe(403);
    expect((await signIn(oneProxy, '198.51.100.9, 198.51.100.8')).status).toBe(429);
    expect((await signIn(oneProxy, '198.51.100.9')).status).toBe(403);
  });

  it('with two proxies, takes the second entry from the right', async () => {
    holdLimits(60);
    for (let i = 0; i < 10; i++) expect((await signIn(twoProxies, `10.0.0.${i}, 203.0.113.20, 10.9.0.1`)).status).toBe(403);
    expect((await signIn(twoProxies, '203.0.113.20, 10.9.0.2')).status).toBe(429);
    expect((await signIn(twoProxies, '203.0.113.20, 203.0.113.21, 10.9.0.1')).status).toBe(403);
  });

  it('limits an IPv6 client by its /64, however it writes its addresses', async () => {
    holdLimits(60);
    for (let i = 0; i < 10; i++) expect((await signIn(oneProxy, `2001:db8:7:7::${(i + 1).toString(16)}`)).status).toBe(403);
    expect((await signIn(oneProxy, '2001:DB8:7:7:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await signIn(oneProxy, '2001:0db8:0007:0007:0000:0000:0000:00aa')).status).toBe(429);
    expect((await signIn(oneProxy, '2001:db8:7:8::1')).status).toBe(403);
  });

  it('limits an IPv4 address written as IPv6, in any of its forms, as that IPv4 address, never with ::1', async () => {
    holdLimits(60);
    const forms = [
      '::ffff:192.0.2.1',
      '::ffff:c000:201',
      '0:0:0:0:0:ffff:192.0.2.1',
      '0000:0000:0000:0000:0000:FFFF:C000:0201',
      '::ffff:c000:0201',
    ];
    for (let i = 0; i < 10; i++) expect((await signIn(oneProxy, forms[i % forms.length])).status).toBe(403);
    expect((await signIn(oneProxy, '192.0.2.1')).status).toBe(429);
    // Neither ::1 nor another mapped address shares that budget.
    expect((await signIn(oneProxy, '::1')).status).toBe(403);
    expect((await signIn(oneProxy, '::ffff:c000:202')).status).toBe(403);
  });

  it('limits an X-Forwarded-For entry with a port as its address, and one that is no address as the peer, never as one shared bucket', async () => {
    holdLimits(60);
    for (let i = 0; i < 10; i++) expect((await signIn(oneProxy, `203.0.113.7:${5000 + i}`)).status).toBe(403);
    expect((await signIn(oneProxy, '203.0.113.7')).status).toBe(429);
    for (let i = 0; i < 10; i++) expect((await signIn(oneProxy, `[2001:db8:9:9::${i + 1}]:443`)).status).toBe(403);
    expect((await signIn(oneProxy, '2001:db8:9:9::ff')).status).toBe(429);
    // Junk is the peer's own address (this test's loopback), which has its own budget like any other.
    for (let i = 0; i < 10; i++) expect((await signIn(twoProxies, `10.0.0.1, not-an-address-${i}, 10.9.0.1`)).status).toBe(403);
    expect((await signIn(twoProxies, '127.0.0.1, 10.9.0.1')).status).toBe(429);
    expect((await signIn(twoProxies, '203.0.113.99, 10.9.0.1')).status).toBe(403);
  });

  it('refuses a cross-site sign-in before it spends anything, and spends the budget on failed sign-ins only', async () => {
    holdLimits(60);
    const { api_key } = await guarded.stores.workspaces.create({
      name: 'Signing',
      company: 'Signing Inc',
      senderFirstName: 'A',
      senderLastName: 'B',
    });
    const post = async (origin: string, key: string, forwardedFor: string) => {
      const page = await fetch(`${guarded.url}/sign-in`, { headers: { 'x-forwarded-for': forwardedFor } });
      const cookie = page.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
      return fetch(`${guarded.url}/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin, cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
        body: new URLSearchParams({ key, csrf }).toString(),
      });
    };
    for (let i = 0; i < 12; i++) expect((await post('https://elsewhere.example', 'nope', '198.51.100.60')).status).toBe(403);
    for (let i = 0; i < 12; i++) expect((await post(guarded.url, api_key, '198.51.100.60')).status).toBe(303);
    for (let i = 0; i < 10; i++) expect((await post(guarded.url, 'nope', '198.51.100.60')).status).toBe(401);
    expect((await post(guarded.url, api_key, '198.51.100.60')).status).toBe(429);
  });

  it('grants exactly 10 of 40 concurrent sign-ins from one address over two API processes, with no 5xx', async () => {
    holdLimits(60);
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(i % 2 ? oneProxy : sameDatabase, '192.0.2.40').then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 403)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });

  it('spends the address budget on unknown links only, so real links behind one address stay open', async () => {
    holdLimits(60);
    const ws = await guarded.newWorkspace('Office');
    const project = projectDoc('prj-office', ws.id);
    await guarded.db.projects.insertOne(project);
    const id = newId('int');
    const token = interviewToken(id);
    await guarded.db.interviews.insertOne({ ...interviewDoc(id, project), token });
    const office = { 'x-forwarded-for': '192.0.2.77' };
    const open = (t: string) => fetch(`${guarded.url}/interview/${t}`, { headers: office });

    // Guesses: 5 a minute from the address (the test's setting), then a 429 in place of the 404.
    for (let i = 0; i < 5; i++) expect((await open(interviewToken(newId('int')))).status).toBe(404);
    expect((await open(interviewToken(newId('int')))).status).toBe(429);
    expect((await fetch(`${guarded.url}/u/x.y`, { headers: office })).status).toBe(429);
    // A real link from the same address is served, 20 times over (its own limit is 60).
    for (let i = 0; i < 20; i++) expect((await open(token)).status).toBe(200);
    // Another address's guesses are its own.
    expect(
      (await fetch(`${guarded.url}/interview/${interviewToken(newId('int'))}`, { headers: { 'x-forwarded-for': '192.0.2.78' } })).status,
    ).toBe(404);
  });
});
