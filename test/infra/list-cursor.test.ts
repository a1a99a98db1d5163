import { randomBytes } from 'node:crypto';
import { decodeCursor, encodeCursor } from '../../infra/lists/cursor';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('list cursors', () => {
  const key = randomBytes(32);
  const state = { scope: 'ws_1\ncalls\njob=a', position: { at: 1_790_000_000_000, id: 'call_1' } };

  it('give back the position they were signed with, for their scope only', async () => {
    const cursor = await encodeCursor(key, state);
    expect(await decodeCursor(key, state.scope, cursor)).toEqual(state.position);
    expect(await decodeCursor(key, 'ws_2\ncalls\njob=a', cursor)).toBeNull();
    expect(await decodeCursor(randomBytes(32), state.scope, cursor)).toBeNull();
  });

  it('refuse a signature written otherwise, even where base64url decoding reads the same bytes', async () => {
    const cursor = await encodeCursor(key, state);
    const [body, sig] = cursor.split('.');
    // The last of 22 characters carries 2 bits of the 16-byte signature: 16 characters decode alike.
    const last = ALPHABET.indexOf(sig.at(-1)!);
    const alike = [...ALPHABET].filter((c, i) => i >> 4 === last >> 4 && i !== last);
    expect(alike).toHaveLength(15);
    for (const c of alike) {
      const altered = `${body}.${sig.slice(0, -1)}${c}`;
      expect(Buffer.from(altered.split('.')[1], 'base64url')).toEqual(Buffer.from(sig, 'base64url'));
      expect(await decodeCursor(key, state.scope, altered)).toBeNull();
    }
    expect(await decodeCursor(key, state.scope, `${body}.${sig}=`)).toBeNull();
    expect(await decodeCursor(key, state.scope, `${body}.${sig}.x`)).toBeNull();
  });
});
