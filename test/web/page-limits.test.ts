import { startStack, type Stack } from '../helpers/stack';
import { interviewDoc, projectDoc } from '../helpers/interview-doc';
import { newId } from '../../infra/ids';
import { interviewToken } from '../../infra/documents/interviews';

/**
 * The limits of the routes without an API key, at their defaults: 10 sign-ins a minute per address, 60
 * requests a minute per interview link, 300 a minute per address over job pages and unknown links. The
 * address is the peer's unless TRUST_PROXY says X-Forwarded-For names it (test/web/client-address-limits.test.ts).
 */
describe('per-address and per-link limits of the pages', () => {
  let direct: Stack;
  let proxied: Stack;
  beforeAll(async () => {
    [direct, proxied] = await Promise.all([startStack(), startStack({ env: { TRUST_PROXY: 'true' } })]);
  });
  afterAll(async () => {
    await direct?.stop();
    await proxied?.stop();
  });

  /** Holds the limits' clocks in a window of their own for the rest of the test, so its requests land in one window however slow the machine is. */
  const holdLimits = (windowSeconds: number) => {
    direct.limits.hold(windowSeconds);
    proxied.limits.hold(windowSeconds);
  };
  afterEach(() => {
    direct?.limits.release();
    proxied?.limits.release();
  });

  const signIn = (stack: Stack, forwardedFor?: string) =>
    fetch(`${stack.url}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: stack.url,
        'content-type': 'application/x-www-form-urlencoded',
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body: 'key=nope&csrf=nope',
    });

  /** A link of its own, as invite stores it. */
  async function link(stack: Stack, name: string): Promise<{ id: string; url: string }> {
    const ws = await stack.newWorkspace(`Ws ${name}`);
    const project = projectDoc(`prj-${name}`, ws.id);
    const id = newId('int');
    const token = interviewToken(id);
    await stack.db.projects.insertOne(project);
    await stack.db.interviews.insertOne({ ...interviewDoc(id, project), token });
    return { id, url: `${stack.url}/interview/${token}` };
  }

  it('refuses the 11th sign-in of a minute from one address with 429 and Retry-After, whatever X-Forwarded-For says', async () => {
    holdLimits(60);
    for (let i = 0; i < 10; i++) expect((await signIn(direct, `10.0.0.${i}`)).status).toBe(403);
    const refused = await signIn(direct, '10.9.9.9');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(await refused.text()).toContain('Too many requests');
    // The form itself is still served: only the attempts are counted.
    expect((await fetch(`${direct.url}/sign-in`)).status).toBe(200);
  });

  it('counts each forwarded address on its own behind a trusted proxy', async () => {
    holdLimits(60);
    for (let i = 0; i < 10; i++) expect((await signIn(proxied, '203.0.113.7')).status).toBe(403);
    expect((await signIn(proxied, '203.0.113.7')).status).toBe(429);
    expect((await signIn(proxied, '203.0.113.8')).status).toBe(403);
  });

  it('gives a link 60 requests a minute, and real links spend nothing of their address’s budget', async () => {
    holdLimits(60);
    const links = await Promise.all(['lim-a', 'lim-b', 'lim-c', 'lim-d', 'lim-e', 'lim-f'].map((name) => link(direct, name)));
    for (let i = 0; i < 60; i++) expect((await fetch(links[0].url)).status).toBe(200);
    const tooMany = await fetch(links[0].url);
    expect(tooMany.status).toBe(429);
    expect(Number(tooMany.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Its forms are counted too, before anything is read.
    expect((await fetch(`${links[0].url}/start`, { method: 'POST', headers: { origin: direct.url } })).status).toBe(429);
    const interview = await direct.db.interviews.findOne({ _id: links[0].id });
    expect(interview?.status).toBe('queued');
    // Each other link is its own budget, and real links spend nothing of the address's 300.
    let served = 0;
    for (const { url } of links.slice(1)) {
      for (let i = 0; i < 60; i++) if ((await fetch(url, { method: 'HEAD' })).status === 200) served++;
    }
    expect(served).toBe(300);
    expect((await fetch(`${direct.url}/jobs/prj-lim-a`)).status).toBe(200);
  }, 60_000);
});
