import { NotFoundError } from '../shared/errors';

/**
 * A document of the workspace, as its store's `owned` read it (by exact `_id`, the workspace checked in code:
 * an extra filter field would scan the collection on FerretDB), or a 404 with `notFound`. Another workspace's
 * document is as not found as a missing one.
 */
export async function orNotFound<T>(read: Promise<T | null>, notFound: string): Promise<T> {
  const doc = await read;
  if (doc === null) throw new NotFoundError(notFound);
  return doc;
}
