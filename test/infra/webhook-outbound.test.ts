import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postJson } from '../../infra/webhooks/outbound';
import { waitFor } from '../helpers/wait';
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

  it('refuses, when it connects, a name that resolves to a loopback address, without saying which', async () => {
    // localhost passes the URL's own check (it is a name), and is refused by the socket's lookup, before any
    // connection: so port 443 needs no listener.
    const before = stub.requests.length;
    const res = await postJson('https://localhost/ok', {}, '{}', { timeoutMs: 2_000, allowPrivate: false });
    expect(res).toEqual({
      status: null,
      error: 'refused: host localhost is not allowed: it resolves to an address a webhook may not reach',
    });
    expect(res.error).not.toMatch(/127\.0\.0\.1|::1|loopback/);
    expect(stub.requests).toHaveLength(before);
  });

  it('refuses any port but 443 and 80 unless private addresses are allowed', async () => {
    expect(await postJson(`https://localhost:${port()}/ok`, {}, '{}', { timeoutMs: 2_000, allowPrivate: false })).toEqual({
      status: null,
      error: 'refused: is not allowed: use port 443 (or 80)',
    });
  });

  it('closes the socket of a receiver that trickles its answer, at the deadline', async () => {
    // Headers at once, then a byte every 50 ms for ever: the socket's idle timeout never fires.
    let closedAfter: number | null = null;
    const trickler = createServer((req, res) => {
      const opened = Date.now();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 50);
      res.on('close', () => {
        clearInterval(drip);
        closedAfter = Date.now() - opened;
      });
      req.resume();
    });
    await new Promise<void>((r) => trickler.listen(0, '127.0.0.1', r));
    try {
      const { port: p } = trickler.address() as AddressInfo;
      expect(await postJson(`http://127.0.0.1:${p}/hook`, {}, '{}', { timeoutMs: 400, allowPrivate: true })).toEqual({
        status: 200,
        error: null,
      });
      await waitFor(
        async () => closedAfter,
        (ms) => ms !== null,
        5_000,
      );
      expect(closedAfter).toBeGreaterThanOrEqual(350);
      expect(closedAfter).toBeLessThan(2_000);
    } finally {
      trickler.closeAllConnections();
      await new Promise((r) => trickler.close(r));
    }
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
