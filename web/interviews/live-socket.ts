import { ServerResponse, STATUS_CODES, type IncomingMessage } from 'node:http';
import Koa from 'koa';
import type { Duplex } from 'node:stream';
import Router from '@koa/router';
import { Value } from '@sinclair/typebox/value';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { LIVE_LIMITS, LiveControl, type LiveEnd, type LiveMessage } from '../../shared/interviews/live';
import type { LiveRefusal } from '../../operations/live-interviews';
import type { Conversation } from '../../operations/live-conversation';
import type { WebDeps } from '../deps';
import { sameOrigin } from '../forms';
import { linkLimits, takeLink, takeUnknownLink } from '../limits';
import { RateLimitedError } from '../../shared/errors';
import { interviewLink } from './link';

/** What the page is told when a conversation cannot open (and the HTTP status of the ticket's refusal). */
const REFUSALS: Record<LiveRefusal | 'invalid_ticket', { status: number; message: string }> = {
  not_live: { status: 409, message: 'This interview is answered on the page, not in a conversation.' },
  no_consent: { status: 409, message: 'Please agree to the recording and the assessment before the conversation starts.' },
  closed: { status: 409, message: 'This interview is no longer open.' },
  busy: { status: 503, message: 'Too many conversations are under way. Please try again in a minute.' },
  workspace_busy: { status: 503, message: "Too many of this company's conversations are under way. Please try again in a minute." },
  invalid_ticket: { status: 403, message: 'This conversation needs a new ticket from its page.' },
};
/** A closed socket's code, by why it ended: 1000 for a normal end, 4000s for the rest (the page reads them). */
const CLOSE_CODES: Record<LiveEnd, number> = {
  finished: 1000,
  switched_to_text: 1000,
  taken_over: 4001,
  silent: 4002,
  closed: 4003,
  refused: 4008,
};
/** Whether the browser that opens the socket says it is on our own page (browsers always send Origin with a WebSocket). */
function sameOriginSocket(req: IncomingMessage): boolean {
  try {
    return req.headers.origin !== undefined && new URL(req.headers.origin).host === req.headers.host;
  } catch {
    return false;
  }
}
const SOCKET_PATH = /^\/interview\/([^/?#]+)\/live(?:\?|$)/;

/** `POST /interview/:token/live/ticket`: after consent, the ticket that opens the conversation's socket for a minute; `…/live/switch`: written answers instead. */
export function liveTicketRoutes({ stores, config, operations, now }: WebDeps): Router {
  const router = new Router();
  const { load } = interviewLink({ stores, config });
  router.post('/interview/:token/live/ticket', linkLimits(stores.limits), sameOrigin, async (ctx) => {
    const { interview, path } = await load(ctx);
    const outcome = await operations.liveInterviews.ticket(interview, now());
    if ('refused' in outcome) {
      const { status, message } = REFUSALS[outcome.refused];
      ctx.status = status;
      if (outcome.refused === 'busy') ctx.set('Retry-After', '60');
      ctx.body = { error: outcome.refused, message };
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ticket: outcome.ticket, expires_at: outcome.expires_at.toISOString(), socket_path: `${path}/live` };
  });
  // "Answer in writing instead": a plain form, so it works without the script or a microphone; back to the page.
  router.post('/interview/:token/live/switch', linkLimits(stores.limits), sameOrigin, async (ctx) => {
    const { interview, path } = await load(ctx);
    await operations.interviewSteps.switchToText(interview, now());
    ctx.status = 303;
    ctx.redirect(path);
  });
  return router;
}

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
    // A page of another site may open a socket to us with the candidate's browser: only our own origin may.
    if (!sameOriginSocket(req)) return refuse(socket, 403, 'A conversation opens only from its own page.');
    // The link's limits, as its pages take them; the client's address read as Koa reads it (TRUST_PROXY).
    const ctx = addresses.createContext(req, new ServerResponse(req));
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
    wss.handleUpgrade(req, socket, head, (ws) => void converse(ws, interview).catch((err: unknown) => fail(ws, err)));
  }

  function fail(ws: WebSocket, err: unknown): void {
    logger.error({ err }, 'live interview socket failed');
    ws.close(CLOSE_CODES.closed, 'closed');
  }

  async function converse(ws: WebSocket, interview: NonNullable<Awaited<ReturnType<typeof stores.interviews.get>>>): Promise<void> {
    const send = (m: LiveMessage) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m));
    // A frame over the limit (1009) or a broken frame is the browser's fault: the socket closes, the process stays.
    ws.on('error', (err) => logger.info({ err: err.message }, 'live interview socket closed on a bad frame'));
    // Listening from the first moment: what the browser sends while the conversation opens waits for it.
    let conversation: Conversation | null = null;
    const early: Array<[Buffer, boolean]> = [];
    let gone = false;
    let silence = setTimeout(() => conversation?.end('silent'), LIVE_LIMITS.silentMs);
    let window = Date.now();
    let inWindow = 0;
    function take(bytes: Buffer, binary: boolean, c: Conversation): void {
      if (binary) return c.audio(bytes);
      if (bytes.length > LIVE_LIMITS.controlBytes) return void send({ type: 'error', message: 'A control message is at most 512 bytes.' });
      let control: unknown;
      try {
        control = JSON.parse(bytes.toString('utf8'));
      } catch {
        control = null;
      }
      // Only the few controls are read: nothing the browser sends reaches the interviewer's instructions.
      if (!Value.Check(LiveControl, control))
        return void send({ type: 'error', message: 'Unknown message: send done, repeat or switch_to_text.' });
      c.control(control);
    }
    ws.on('message', (data: RawData, binary: boolean) => {
      clearTimeout(silence);
      silence = setTimeout(() => conversation?.end('silent'), LIVE_LIMITS.silentMs);
      const at = Date.now();
      if (at - window >= 1000) {
        window = at;
        inWindow = 0;
      }
      if (++inWindow > LIVE_LIMITS.messagesPerSecond) {
        if (conversation) return conversation.end('refused');
        gone = true;
        send({ type: 'ended', reason: 'refused' });
        return void ws.close(CLOSE_CODES.refused, 'refused');
      }
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (conversation) take(bytes, binary, conversation);
      else early.push([bytes, binary]);
    });
    ws.on('close', () => {
      gone = true;
      clearTimeout(silence);
      conversation?.end('closed');
    });
    const opened = await live.converse(interview, {
      send,
      sendAudio: (pcm) => ws.readyState === ws.OPEN && ws.send(pcm, { binary: true }),
      close(reason) {
        send({ type: 'ended', reason });
        ws.close(CLOSE_CODES[reason], reason);
      },
    });
    if (gone) return opened.end('closed');
    conversation = opened;
    for (const [bytes, binary] of early.splice(0)) take(bytes, binary, opened);
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
