import { createHmac, randomUUID } from 'node:crypto';
import { claim } from '../infra/claims';
import { safeEqual } from '../infra/safe-equal';
import type { Database } from '../infra/database';
import { decodeCursor, encodeCursor, type CursorState } from '../infra/lists/cursor';
import type { Position } from '../infra/lists/time-index';
import { sharedKey } from './shared-keys';

/**
 * Tokens the service signs with secrets the processes share (kept in `settings`, stores/shared-keys.ts), checked
 * without a read of what they name:
 * - list cursors (infra/lists/cursor.ts), bound to the workspace, the list and the query that made them;
 * - a live interview's ticket (docs/live-interviews.md): when it runs out, a dot, and an HMAC of that and the
 *   interview's id, minted after the candidate's consent to open the conversation's socket for a minute;
 * - the token of an email's unsubscribe link: the interview's id, a dot, and an HMAC of it. Every email the
 *   service sends is about an interview, whose candidate's address it names; the link holds no address and
 *   opens nothing of the interview.
 */

const UNSUBSCRIBE_KEY = 'unsubscribe-link-key';
const LIVE_TICKET_KEY = 'live-ticket-key';
const ticketMac = (key: Buffer, interviewId: string, until: number) =>
  createHmac('sha256', key).update(`live\n${interviewId}\n${until}`).digest().subarray(0, 18).toString('base64url');
const CURSOR_KEY = 'list-cursor-key';
const mac = (key: Buffer, interviewId: string) => createHmac('sha256', key).update(`unsubscribe\n${interviewId}`).digest().subarray(0, 18);

export function signedTokenStore(db: Database) {
  return {
    cursors: {
      encode: async (state: CursorState): Promise<string> => encodeCursor(await sharedKey(db, CURSOR_KEY), state),
      /** The position in `cursor`, or null when it is not one this service signed for `scope`. */
      decode: async (scope: string, cursor: string): Promise<Position | null> =>
        decodeCursor(await sharedKey(db, CURSOR_KEY), scope, cursor),
    },

    liveTickets: {
      async mint(interviewId: string, until: Date): Promise<string> {
        const at = until.getTime();
        return `${at}.${ticketMac(await sharedKey(db, LIVE_TICKET_KEY), interviewId, at)}`;
      },
      /**
       * Whether the ticket is one this service minted for the interview, has not run out at `now`, and opens its
       * first socket: a ticket is used once (a claim on its signature until it runs out, so a ticket seen in a
       * log or a proxy opens nothing more).
       */
      async use(interviewId: string, ticket: string, now: Date): Promise<boolean> {
        const [until, sig, extra] = ticket.split('.');
        const at = Number(until);
        if (!sig || extra !== undefined || !/^\d{1,15}$/.test(until) || at < now.getTime()) return false;
        if (!safeEqual(sig, ticketMac(await sharedKey(db, LIVE_TICKET_KEY), interviewId, at))) return false;
        const socket = randomUUID();
        return (await claim(db, `live-ticket/${sig}`, socket, { now, expiresAt: new Date(at + 1) })) === socket;
      },
    },

    unsubscribeLinks: {
      async tokenFor(interviewId: string): Promise<string> {
        return `${interviewId}.${mac(await sharedKey(db, UNSUBSCRIBE_KEY), interviewId).toString('base64url')}`;
      },

      /** The interview id a token was made for, or null when this service did not sign it. */
      async interviewOf(token: string): Promise<string | null> {
        const [interviewId, sig, extra] = token.split('.');
        if (!interviewId || !sig || extra !== undefined || interviewId.length > 64) return null;
        // Compared as written (infra/safe-equal.ts): a decoded comparison would take some altered signatures.
        return safeEqual(sig, mac(await sharedKey(db, UNSUBSCRIBE_KEY), interviewId).toString('base64url')) ? interviewId : null;
      },
    },
  };
}

export type SignedTokenStore = ReturnType<typeof signedTokenStore>;
