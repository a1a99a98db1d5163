import { ServerResponse, STATUS_CODES, type IncomingMessage } from 'node:http';
import Koa from 'koa';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { LIVE_LIMITS } from '../../shared/interviews/live';
import type { WebDeps } from '../deps';
import { takeLink, takeUnknownLink } from '../limits';
import { RateLimitedError } from '../../shared/errors';
import { REFUSALS } from './live-routes';
import { CLOSE_CODES, converse } from './live-session';

/**
 * Whether the browser that opens the socket says it is on our own page (browsers always send Origin with a
 * WebSocket): the request's own host, by the public URL's scheme when that host is the public URL's (an `http:`
 * page of the public host, which a network that downgrades could serve, is not ours when the service is served
 * over `https:`), else by the scheme the request came in on (a developer's `localhost`, a test's address).
 */
function sameOriginSocket(req: IncomingMessage, ownScheme: string, publicUrl: URL): boolean {
  try {
    if (req.headers.origin === undefined) return false;
    const origin = new URL(req.headers.origin);
    const scheme = req.headers.host === publicUrl.host ? publicUrl.protocol : `${ownScheme}:`;
    return origin.host === req.headers.host && origin.protocol === scheme;
  } catch {
    return false;
  }
}
const SOCKET_PATH = /^\/interview\/([^/?#]+)\/live(?:\?|$)/;

/**
 * The conversations' WebSockets (`/interview/{token}/live?ticket=…`), on the API's own server: same origin
 * only, the link's token and a ticket minted after consent, one conversation per interview. Frames and
 * controls are bounded in size and rate; a socket silent for two minutes is closed (the link resumes it).
 */
export function liveSockets({
  stores,
  operations,
  logger,
  now,
  config,
}: Pick<WebDeps, 'stores' | 'operations' | 'logger' | 'now' | 'config'>) {
  // Only to read a client's address as the API's Koa app does (api/app.ts): the socket is no Koa request.
  const addresses = new Koa({ proxy: config.TRUST_PROXY > 0, maxIpsCount: config.TRUST_PROXY });
  const wss = new WebSocketServer({ noServer: true, maxPayload: LIVE_LIMITS.frameBytes });
  const live = operations.liveInterviews;
  const publicUrl = new URL(config.PUBLIC_BASE_URL);

  /** A limit's refusal as the pages answer it, 429 with Retry-After; anything else is the server's. */
  function refuseLimited(socket: Duplex, err: unknown): void {
    if (!(err instanceof RateLimitedError)) throw err;
    refuse(socket, 429, err.message, `Retry-After: ${err.retryAfterSeconds}\r\n`);
  }

  function refuse(socket: Duplex, status: number, message: string, extra = ''): void {
    const body = JSON.stringify({ message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${extra}\r\n${body}`,
    );
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // A client that resets while its upgrade is looked at must not take the process with it.
    socket.on('error', () => socket.destroy());
    const match = SOCKET_PATH.exec(req.url ?? '');
    if (!match) return refuse(socket, 404, 'Not found.');
    // The link's limits, as its pages take them; the client's address and scheme read as Koa reads them (TRUST_PROXY).
    const ctx = addresses.createContext(req, new ServerResponse(req));
    // A page of another site may open a socket to us with the candidate's browser: only our own origin may.
    if (!sameOriginSocket(req, ctx.protocol, publicUrl)) return refuse(socket, 403, 'A conversation opens only from its own page.');
    let token: string;
    try {
      token = decodeURIComponent(match[1]);
    } catch {
      return refuse(socket, 404, 'Interview not found.');
    }
    const limited = await takeLink(stores.limits, token).then(
      () => null,
      (err: unknown) => err,
    );
    if (limited) return refuseLimited(socket, limited);
    const interview = await stores.interviews.ofToken(token);
    if (!interview || interview.erased_at) {
      const guessed = await takeUnknownLink(stores.limits, ctx).then(
        () => null,
        (err: unknown) => err,
      );
      return guessed ? refuseLimited(socket, guessed) : refuse(socket, 404, 'Interview not found.');
    }
    const ticket = new URL(req.url ?? '', 'http://local').searchParams.get('ticket') ?? '';
    const refused = await live.admits(interview, ticket, now());
    if (refused)
      return refuse(
        socket,
        REFUSALS[refused].status,
        REFUSALS[refused].message,
        REFUSALS[refused].status === 503 ? 'Retry-After: 60\r\n' : '',
      );
    wss.handleUpgrade(
      req,
      socket,
      head,
      (ws) => void converse(ws, interview, { operations, logger }).catch((err: unknown) => fail(ws, err)),
    );
  }

  function fail(ws: WebSocket, err: unknown): void {
    logger.error({ err }, 'live interview socket failed');
    ws.close(CLOSE_CODES.closed, 'closed');
  }

  return {
    /** The server's `upgrade` listener. */
    upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      void upgrade(req, socket, head).catch((err: unknown) => {
        logger.error({ err }, 'live interview upgrade failed');
        refuse(socket, 503, 'Please try again.');
      }),
    /** Closes every conversation's socket (the process stops; the links resume them). */
    close(): void {
      for (const ws of wss.clients) ws.close(1001, 'going away');
    },
  };
}
