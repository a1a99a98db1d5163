import type { Database } from '../infra/database';
import { claim, claimOf } from '../infra/claims';
import { personHashKeys, versionedKeys, type PersonHashKeys, type VersionedKey } from './person-keys';

/** A day, in which a phone takes at most the workspace's `max_dials_per_phone_per_day` dials. */
export const DIAL_CAP_WINDOW_MS = 86_400_000;

/** What the cap says of a dial: go, or wait until `at`, when the oldest dial of the last 24 hours leaves them. */
export type DialCapDecision = { go: true } | { go: false; at: number };

export interface DialCapStore {
  /**
   * Takes one of the phone's `cap` dials of the last 24 hours in the workspace for `dial` (`<call>/<attempt>`),
   * or says when one frees up. A dial that took one already (a retried activity) goes again without a second.
   */
  take(workspaceId: string, phone: string, dial: string, cap: number, now: Date): Promise<DialCapDecision>;
}

/**
 * The dial cap as `cap` claims per phone and workspace (infra/claims.ts), each held by one dial for 24 hours:
 * a dial goes when it wins a free claim or one whose 24 hours are over. The unique `_id` decides between dials
 * at the same moment, on MongoDB and on FerretDB alike, so the cap holds under concurrency; every read is an
 * exact `_id`. The phone is in the claims only as a keyed hash (stores/person-keys.ts).
 */
export function dialCapStore(db: Database, hashKeys: PersonHashKeys = personHashKeys(db, [])): DialCapStore {
  return {
    async take(workspaceId, phone, dial, cap, now) {
      // Taken under the current key; the dials of the last day held under every other key it may have been
      // filed with (an earlier secret, or the same secret's earlier label: stores/person-keys.ts) count too, so
      // a phone never takes its cap twice on the day a key changes.
      const [current, ...others] = await hashKeys.all('dial-caps');
      const slotsOf = (key: VersionedKey) => {
        const [phoneKey] = versionedKeys(key, 'dc', workspaceId, { phone }, ['phone']);
        return Array.from({ length: cap }, (_, n) => `dial-cap/${phoneKey}/${n}`);
      };
      const keys = slotsOf(current);
      const [held, before] = await Promise.all([
        Promise.all(keys.map((key) => claimOf(db, key))),
        Promise.all(others.flatMap(slotsOf).map((key) => claimOf(db, key))),
      ]);
      if ([...held, ...before].some((c) => c?.holder === dial)) return { go: true };
      // The current key's slots a dial of the last day held under another key takes away.
      const elsewhere = before.filter((c) => c?.expires_at && c.expires_at > now);
      cap -= elsewhere.length;
      const until = new Date(now.getTime() + DIAL_CAP_WINDOW_MS);
      for (const [n, key] of keys.slice(0, Math.max(0, cap)).entries()) {
        const holding = held[n];
        if (holding?.expires_at && holding.expires_at > now) continue;
        if ((await claim(db, key, dial, { now, expiresAt: until })) === dial) return { go: true };
      }
      // Every one is held (some perhaps just now, by dials at the same moment): the earliest to free up.
      const after = await Promise.all(keys.map((key) => claimOf(db, key)));
      const frees = [...after, ...elsewhere].map((c) => c?.expires_at?.getTime() ?? now.getTime());
      return { go: false, at: Math.max(now.getTime() + 1, Math.min(...frees)) };
    },
  };
}
