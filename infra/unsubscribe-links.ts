import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from './database';
import { sharedKey } from './shared-keys';

/**
 * The token of an email's unsubscribe link: the interview's id, a dot, and an HMAC of it with a key the
 * processes share. Every email the service sends is about an interview, whose candidate's address it names;
 * the link holds no address, opens nothing of the interview, and is checked without a read.
 */

const KEY_ID = 'unsubscribe-link-key';
const mac = (key: Buffer, interviewId: string) => createHmac('sha256', key).update(`unsubscribe\n${interviewId}`).digest().subarray(0, 18);

export async function unsubscribeToken(db: Database, interviewId: string): Promise<string> {
  return `${interviewId}.${mac(await sharedKey(db, KEY_ID), interviewId).toString('base64url')}`;
}

/** The interview id a token was made for, or null when this service did not sign it. */
export async function interviewOfUnsubscribeToken(db: Database, token: string): Promise<string | null> {
  const [interviewId, sig, extra] = token.split('.');
  if (!interviewId || !sig || extra !== undefined || interviewId.length > 64) return null;
  // Compared as written: base64url decoding drops stray characters, so a decoded comparison would take them.
  const given = Buffer.from(sig);
  const expected = Buffer.from(mac(await sharedKey(db, KEY_ID), interviewId).toString('base64url'));
  return given.length === expected.length && timingSafeEqual(given, expected) ? interviewId : null;
}
