import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressKind, refusedAddress, refusedUrl } from '../../shared/webhooks/addresses';

/**
 * Requests to the URLs workspaces give us, checked against SSRF twice: the URL when it is given (its scheme,
 * and every address its host resolves to), and each address the connection actually uses, in the socket's
 * own lookup, so a name that resolves elsewhere later (DNS rebinding) is still refused.
 */

export class RefusedAddressError extends Error {}

/** Every address a host name resolves to now. */
function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/** Why a webhook URL may not be registered; null when it may. Names are resolved, and every address checked. */
export async function checkWebhookUrl(text: string, allowPrivate: boolean): Promise<string | null> {
  const refused = refusedUrl(text, allowPrivate);
  if (refused) return refused;
  const host = new URL(text).hostname;
  if (addressKind(host)) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    return `host ${host} does not resolve`;
  }
  // Which address, and what kind, stays here: echoed, it would map a private network for whoever asks.
  if (addresses.some((a) => refusedAddress(addressKind(a.address) ?? 'reserved', allowPrivate))) {
    return `host ${host} is not allowed: it resolves to an address a webhook may not reach`;
  }
  return null;
}

/** A lookup for sockets that fails on an address a webhook may not reach. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (addresses.some((a) => refusedAddress(addressKind(a.address) ?? 'reserved', allowPrivate))) {
        return callback(
          new RefusedAddressError(`host ${hostname} is not allowed: it resolves to an address a webhook may not reach`),
          '',
          0,
        );
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export interface PostResult {
  /** The receiver's status; null when it gave none. */
  status: number | null;
  error: string | null;
}

/**
 * POSTs `body` to `url` within `timeoutMs`, without following redirects (a redirect is an answer like any
 * other non-2xx), reading at most a little of the answer.
 */
export function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const refused = refusedUrl(url, opts.allowPrivate);
  if (refused) return Promise.resolve({ status: null, error: `refused: ${refused}` });
  const target = new URL(url);
  const options: RequestOptions = {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'hiring-integration-webhooks/1',
      'content-length': Buffer.byteLength(body),
      ...headers,
    },
    lookup: guardedLookup(opts.allowPrivate),
    timeout: opts.timeoutMs,
  };
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: PostResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    const req = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, options, (res) => {
      // The status is the answer; the body is drained so the connection can be reused, but only within the
      // deadline below: a receiver trickling its body a byte at a time does not hold the socket past it.
      res.resume();
      res.on('end', () => clearTimeout(deadline));
      done({ status: res.statusCode ?? null, error: null });
    });
    // The whole exchange, connection and answer included, within the timeout (the socket's own timeout is
    // for idleness, which a trickle never is).
    const deadline = setTimeout(() => {
      req.destroy();
      done({ status: null, error: `no answer within ${opts.timeoutMs / 1_000} s` });
    }, opts.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', (err) => done({ status: null, error: err instanceof RefusedAddressError ? `refused: ${err.message}` : err.message }));
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs / 1_000} s`)));
    req.end(body);
  });
}

export interface SentResult extends PostResult {
  /** The answer's body, its first 64 kB, as text; null without an answer. */
  body: string | null;
}

/**
 * A request to a partner's API (an ATS's result reports, docs/ats/), under the same guard as a webhook's: the
 * URL's scheme, each address the socket uses, no redirect followed, the whole exchange within `timeoutMs`; the
 * answer's body read up to 64 kB, for an API that answers 200 with `success: false`.
 */
export function sendJson(
  method: 'POST' | 'PATCH',
  url: string,
  headers: Record<string, string>,
  body: string | null,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<SentResult> {
  const refused = refusedUrl(url, opts.allowPrivate);
  if (refused) return Promise.resolve({ status: null, error: `refused: ${refused}`, body: null });
  const target = new URL(url);
  const options: RequestOptions = {
    method,
    headers: {
      'user-agent': 'hiring-integration-partners/1',
      accept: 'application/json',
      ...(body === null ? { 'content-length': 0 } : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
      ...headers,
    },
    lookup: guardedLookup(opts.allowPrivate),
    timeout: opts.timeoutMs,
  };
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: SentResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(r);
    };
    const req = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < 65_536) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () =>
        done({ status: res.statusCode ?? null, error: null, body: Buffer.concat(chunks).toString('utf8').slice(0, 65_536) }),
      );
      res.on('error', (err) => done({ status: res.statusCode ?? null, error: err.message, body: null }));
    });
    const deadline = setTimeout(() => {
      req.destroy();
      done({ status: null, error: `no answer within ${opts.timeoutMs / 1_000} s`, body: null });
    }, opts.timeoutMs);
    req.on('error', (err) =>
      done({ status: null, error: err instanceof RefusedAddressError ? `refused: ${err.message}` : err.message, body: null }),
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs / 1_000} s`)));
    req.end(body ?? undefined);
  });
}
