import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  /** When the request arrived (epoch ms). */
  at: number;
}

export type StubReply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Close the connection without answering (a network failure). */
  | { drop: true }
  /** Never answer (a timeout). */
  | { hang: true }
  /** Answer once `until` settles, with what it gives (a request held in flight, for a test that kills its sender). */
  | { held: Promise<StubReply> };

export interface HttpStub {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A local HTTP server standing in for a provider's API: it records every request and answers with what the
 * test's `reply` returns, in the provider's own wire format.
 */
export async function startHttpStub(reply: (req: RecordedRequest, n: number) => StubReply): Promise<HttpStub> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        /* kept as text */
      }
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, at: Date.now() };
      requests.push(recorded);
      answer(reply(recorded, requests.length));
    });
    function answer(r: StubReply): void {
      if ('held' in r) return void r.held.then(answer);
      if ('drop' in r) return void req.socket.destroy();
      if ('hang' in r) return;
      if (res.destroyed) return;
      const payload = r.body === undefined ? '' : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
      res.writeHead(r.status, {
        ...(r.body !== undefined && typeof r.body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...r.headers,
      });
      res.end(payload);
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
