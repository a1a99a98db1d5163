import { postJson } from '../../infra/webhooks/outbound';
import { startHttpStub, type HttpStub } from '../helpers/http-stub';

/** The POST to a receiver, against a local server: the address check made at delivery, timeouts, redirects. */
describe('webhook requests', () => {
  let stub: HttpStub;
  beforeAll(async () => {
    stub = await startHttpStub((req) =>
      req.path === '/slow' ? { hang: true } : req.path === '/moved' ? { status: 302, headers: { location: '/ok' } } : { status: 204 },
    );
  });
  afterAll(() => stub?.close());
  const port = () => new URL(stub.url).port;

  it('refuses, when it connects, a name that resolves to a loopback address', async () => {
    // localhost passes the URL's own check (it is a name), and is refused by the socket's lookup.
    const before = stub.requests.length;
    const res = await postJson(`https://localhost:${port()}/ok`, {}, '{}', { timeoutMs: 2_000, allowPrivate: false });
    expect(res).toEqual({
      status: null,
      error: expect.stringMatching(/^refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address$/),
    });
    expect(stub.requests).toHaveLength(before);
  });

  it('reaches a loopback receiver where private addresses are allowed, with the body and headers given', async () => {
    const res = await postJson(`http://localhost:${port()}/ok`, { 'webhook-id': 'evt_1' }, '{"a":1}', {
      timeoutMs: 2_000,
      allowPrivate: true,
    });
    expect(res).toEqual({ status: 204, error: null });
    const got = stub.requests.at(-1)!;
    expect(got.raw).toBe('{"a":1}');
    expect(got.headers).toMatchObject({ 'webhook-id': 'evt_1', 'content-type': 'application/json' });
  });

  it('does not follow a redirect, and gives up on a receiver that does not answer in time', async () => {
    expect(await postJson(`${stub.url}/moved`, {}, '{}', { timeoutMs: 2_000, allowPrivate: true })).toEqual({ status: 302, error: null });
    const started = Date.now();
    expect(await postJson(`${stub.url}/slow`, {}, '{}', { timeoutMs: 300, allowPrivate: true })).toEqual({
      status: null,
      error: 'no answer within 0.3 s',
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
