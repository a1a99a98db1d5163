import type { Database } from '../infra/database';
import { insertOnce } from '../infra/duplicate-key';
import { newToken } from '../infra/ids';

const keys = new WeakMap<Database, Map<string, Promise<Buffer>>>();

/**
 * A secret the processes share, generated once by whichever comes first and kept in `settings` under `id`:
 * the key that signs list cursors, the one that files the suppression list, the one that signs unsubscribe links.
 * Read once per process; a failed read is tried again at the next use.
 */
export function sharedKey(db: Database, id: string): Promise<Buffer> {
  let byId = keys.get(db);
  if (!byId) keys.set(db, (byId = new Map()));
  let key = byId.get(id);
  if (!key) {
    key = (async () => {
      await insertOnce(db.settings, { _id: id, value: newToken(32) });
      const doc = await db.settings.findOne({ _id: id });
      return Buffer.from(doc!.value, 'base64url');
    })();
    key.catch(() => byId.delete(id));
    byId.set(id, key);
  }
  return key;
}
