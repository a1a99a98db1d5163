import type { Collection, Filter } from 'mongodb';
import { NotFoundError } from '../shared/errors';

/**
 * A record of the workspace, read by exact `_id` with the workspace checked in code (an extra filter field
 * would scan the collection on FerretDB). Another workspace's record is as not found as a missing one.
 */
export async function findOwned<T extends { _id: string; workspace_id: string }>(
  collection: Collection<T>,
  id: string,
  workspaceId: string,
  notFound: string,
): Promise<T> {
  const doc = (await collection.findOne({ _id: id } as Filter<T>)) as T | null;
  if (doc?.workspace_id !== workspaceId) throw new NotFoundError(notFound);
  return doc;
}
