import { startStack, type Stack } from '../helpers/stack';
import { adminStores } from '../../composition/admin-stores';

/**
 * How long a dashboard session lives: until its API key is revoked, until its browser signs in again, and
 * no longer than SESSION_IDLE_MINUTES (60 by default) without a request. Over HTTP against the real stack;
 * the pages' clock is the test's.
 */
describe('dashboard session lifetime', () => {
  let stack: Stack;
  let skew = 0;
  beforeAll(async () => {
    stack = await startStack({ now: () => new Date(Date.now() + skew) });
  });
  afterAll(() => stack?.stop());

  const cookieOf = (res: Response, name: string) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith(`__Host-${name}=`));

  /** Signs in with `key` as a browser would, sending the session cookie it already has, if any. */
  async function signIn(key: string, session?: string): Promise<string> {
    const form = await fetch(`${stack.url}/sign-in`);
    const signInCookie = cookieOf(form, 'hi_sign_in')!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1];
    const res = await fetch(`${stack.url}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: stack.url,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: [signInCookie, session].filter(Boolean).join('; '),
      },
      body: new URLSearchParams({ key, csrf, next: '/projects' }).toString(),
    });
    expect(res.status).toBe(303);
    return cookieOf(res, 'hi_session')!;
  }
  /** Whether the dashboard lets this session in (200) or sends it to sign in (303). */
  const dashboard = async (session: string) =>
    (await fetch(`${stack.url}/projects`, { redirect: 'manual', headers: { cookie: session } })).status;

  it('ends when the API key that opened it is revoked, and only that key’s sessions', async () => {
    const ws = await stack.newWorkspace('Revokeco');
    const other = await adminStores(stack.db).workspaces.createKey(ws.id);
    const revoked = await signIn(ws.key);
    const kept = await signIn(other.api_key);
    expect(await dashboard(revoked)).toBe(200);
    expect(await adminStores(stack.db).workspaces.revokeKey({ key: ws.key })).toBe(true);
    expect(await dashboard(revoked)).toBe(303);
    expect(await dashboard(kept)).toBe(200);
    // The session is gone from the database, not only refused.
    expect(await stack.db.sessions.countDocuments({ workspace_id: ws.id })).toBe(1);
  });

  it('ends the browser’s earlier session when it signs in again', async () => {
    const ws = await stack.newWorkspace('Resignco');
    const first = await signIn(ws.key);
    const second = await signIn(ws.key, first);
    expect(await dashboard(first)).toBe(303);
    expect(await dashboard(second)).toBe(200);
    expect(await stack.db.sessions.countDocuments({ workspace_id: ws.id })).toBe(1);
  });

  it('ends after 60 idle minutes, and each request starts the hour again', async () => {
    const ws = await stack.newWorkspace('Idleco');
    const session = await signIn(ws.key);
    skew += 59 * 60_000;
    expect(await dashboard(session)).toBe(200);
    skew += 59 * 60_000;
    expect(await dashboard(session)).toBe(200);
    skew += 60 * 60_000 + 1_000;
    expect(await dashboard(session)).toBe(303);
    expect(await stack.db.sessions.countDocuments({ workspace_id: ws.id })).toBe(0);
  });
});
