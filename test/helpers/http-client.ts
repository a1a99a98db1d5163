import { Agent, request } from 'node:http';

/**
 * The client the API tests and the fuzzing send their requests with: node:http on a keep-alive agent, not
 * fetch. Undici's fetch took 0.37 to 0.64 ms of CPU a request against 0.10 to 0.19 for node:http, a local
 * server answering both in the same process (measured), and the suite sends tens of thousands. It sends the
 * headers fetch adds (but for asking for compression, which the API does not do) and follows no redirect,
 * which the API does not send.
 */
// A kept socket is let go after 4 s unused, before a server on Node's default 5 s keep-alive closes it (the
// API's was, until it kept 65 s: api/server.ts). Reused at the moment the server closed it, a request failed
// with "read ECONNRESET" (a fresh-clone run's live-interview-resume, 2026-11-29; 3 in 240 requests sent 4.5 to
// 6.5 s after the last, the client's event loop busy for 15 ms, and none with this timeout). Node's agent heeds
// a server's `Keep-Alive: timeout=N` only when it has a timeout of its own.
const agent = new Agent({ keepAlive: true, timeout: 4_000 });
const FETCH_HEADERS = { accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node' };

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export function send(url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A name given in any case replaces fetch's own, as in fetch's Headers.
    const headers: Record<string, string> = { ...FETCH_HEADERS };
    for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
    // Node sends a body of a GET, DELETE or OPTIONS without its length unless told.
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    // Parsed as fetch parses it (WHATWG URL): a path's spaces and non-ASCII characters go percent-encoded.
    const req = request(new URL(url), { method: init.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
        }
        resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
