import type { Database } from '../database';
import { timeIndex, type TimeIndex } from './time-index';

const indexes = new WeakMap<Database, TimeIndex>();

/** The database's one time index, so its record of written markers is shared by every list of the process. */
export function indexOf(db: Database): TimeIndex {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = timeIndex(db.listIndex)));
  return index;
}
