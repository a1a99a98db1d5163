import type { Database } from '../infra/database';
import { claim, release } from '../infra/claims';
import { newToken } from '../infra/ids';

/**
 * How long a send's claim is kept: far past the longest its activity is retried (minutes), by which time its
 * outcome is recorded where the message is (the call, the interview, the delivery); then the sweep removes it.
 */
export const SEND_CLAIM_MS = 7 * 86_400_000;

/** One message to a person (or one try of a webhook delivery), named so that a retry names the same one. */
export type SendKey =
  | { channel: 'whatsapp'; callId: string; kind: string }
  | { channel: 'email'; idempotencyKey: string }
  | { channel: 'webhook'; eventId: string; endpointId: string; attempt: number };

const claimKey = (key: SendKey): string =>
  key.channel === 'whatsapp'
    ? `send/whatsapp/${key.callId}/${key.kind}`
    : key.channel === 'email'
      ? `send/email/${key.idempotencyKey}`
      : `send/webhook/${key.eventId}/${key.endpointId}/${key.attempt}`;

/** A send this execution took: it may go. */
export interface TakenSend {
  key: SendKey;
  holder: string;
}

/**
 * Sends taken before they go (docs/reliability.md, "Once to a person"): a message to a person is claimed
 * (infra/claims.ts, one insert of a unique `_id`) by the execution about to send it, before the provider is
 * asked. An execution that finds the claim taken by another (a worker that died mid-send, an activity timed
 * out and retried) does not send: the message may have gone, and its outcome is recorded as unknown. A send
 * the provider surely did not carry out (it answered with an error, or the connection was never made) is
 * given back, so a retry sends it. Each execution holds a new random holder, so a rerun (a local activity
 * replayed after its worker died starts from attempt 1 again) is never taken for the one before it.
 */
export function sendStore(db: Database) {
  return {
    /** Takes the send for this execution; null when another execution took it (it may have gone). */
    async take(key: SendKey, now: Date): Promise<TakenSend | null> {
      const holder = newToken(12);
      const owner = await claim(db, claimKey(key), holder, { now, expiresAt: new Date(now.getTime() + SEND_CLAIM_MS) });
      return owner === holder ? { key, holder } : null;
    },
    /** Gives back a send that surely did not go, so that a retry sends it. */
    async giveBack(send: TakenSend): Promise<void> {
      await release(db, claimKey(send.key), send.holder);
    },
  };
}

export type SendStore = ReturnType<typeof sendStore>;
