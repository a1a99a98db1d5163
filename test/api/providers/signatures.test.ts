import { createHmac } from 'node:crypto';
import { MAX_SIGNATURE_AGE_SECONDS, verifyHubSignature, verifyVapi } from '../../../api/providers/signatures';
import { safeEqual } from '../../../infra/safe-equal';

const secret = 'whsec-vapi';
const raw = Buffer.from('{"message":{"type":"status-update","status":"ringing"}}');
const hmac = (payload: string | Buffer, key = secret) => createHmac('sha256', key).update(payload).digest('hex');
const now = Date.parse('2026-11-22T10:00:00Z');

describe('provider signatures', () => {
  it('compares secrets of any length without failing open', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('', 'abc')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });

  it('accepts each way Vapi authenticates a message with the shared secret', () => {
    const ts = String(now / 1000);
    expect(verifyVapi({ 'x-vapi-signature': hmac(`${ts}.${raw}`), 'x-vapi-timestamp': ts }, raw, secret, now)).toBe(true);
    expect(
      verifyVapi({ 'x-vapi-signature': `sha256=${hmac(`${ts}.${raw}`).toUpperCase()}`, 'x-vapi-timestamp': ts }, raw, secret, now),
    ).toBe(true);
    expect(verifyVapi({ 'x-vapi-secret': secret }, raw, secret, now)).toBe(true);
    expect(verifyVapi({ authorization: `Bearer ${secret}` }, raw, secret, now)).toBe(true);
  });

  it('rejects wrong, missing, replayed or tampered signatures', () => {
    const ts = String(now / 1000);
    expect(verifyVapi({}, raw, secret, now)).toBe(false);
    expect(verifyVapi({ 'x-vapi-signature': hmac(`${ts}.${raw}`, 'other'), 'x-vapi-timestamp': ts }, raw, secret, now)).toBe(false);
    expect(verifyVapi({ 'x-vapi-signature': hmac(`${ts}.${raw}`), 'x-vapi-timestamp': ts }, Buffer.from(`${raw} `), secret, now)).toBe(
      false,
    );
    // A signature without its timestamp could be replayed for ever, even a right one over the body alone.
    expect(verifyVapi({ 'x-vapi-signature': hmac(raw) }, raw, secret, now)).toBe(false);
    expect(verifyVapi({ 'x-vapi-signature': hmac(`${ts}.${raw}`) }, raw, secret, now)).toBe(false);
    // A signature header decides: a right secret header alongside a wrong signature does not rescue it.
    expect(verifyVapi({ 'x-vapi-signature': 'bad', 'x-vapi-secret': secret }, raw, secret, now)).toBe(false);
    const old = String(now / 1000 - MAX_SIGNATURE_AGE_SECONDS - 1);
    expect(verifyVapi({ 'x-vapi-signature': hmac(`${old}.${raw}`), 'x-vapi-timestamp': old }, raw, secret, now)).toBe(false);
    expect(verifyVapi({ 'x-vapi-secret': 'whsec-vap' }, raw, secret, now)).toBe(false);
    expect(verifyVapi({ authorization: `Basic ${secret}` }, raw, secret, now)).toBe(false);
  });

  it('checks X-Hub-Signature-256 over the raw body with the app secret', () => {
    expect(verifyHubSignature({ 'x-hub-signature-256': `sha256=${hmac(raw, 'app-secret')}` }, raw, 'app-secret')).toBe(true);
    expect(verifyHubSignature({ 'x-hub-signature-256': `sha256=${hmac(raw, 'other')}` }, raw, 'app-secret')).toBe(false);
    expect(verifyHubSignature({ 'x-hub-signature-256': hmac(raw, 'app-secret') }, raw, 'app-secret')).toBe(false);
    expect(verifyHubSignature({}, raw, 'app-secret')).toBe(false);
  });
});
