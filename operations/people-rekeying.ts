import type { OperationDeps } from './deps';
import { peopleIndexing, type PeopleIndexed } from './people-index';

/** What admin people:rekey did. */
export interface PeopleRekeyed {
  people: PeopleIndexed;
  suppressions: {
    /** Filed again under the current secret. */
    rekeyed: number;
    /** Under it already. */
    current: number;
    /** An erasure's entries, which keep only their hashes: they match under their own secret, which must stay. */
    hashes_only: number;
  };
}

/**
 * Files people's hashes again under the newest person hash secret (stores/person-keys.ts), after a new one was
 * put in front of PERSON_HASH_SECRETS: the person index and the email claims (admin people:index's walk), and
 * every suppression entry that still has its phone or email. Nothing is dropped that could not be made again:
 * an entry of hashes only stays as it is, and keeps matching while its secret is configured. Repeatable.
 */
export function peopleRekeying({ stores }: Pick<OperationDeps, 'stores'>) {
  const indexPeople = peopleIndexing({ stores });
  return async function rekeyPeople(workspaceId: string | null): Promise<PeopleRekeyed> {
    const people = await indexPeople(workspaceId);
    const suppressions = { rekeyed: 0, current: 0, hashes_only: 0 };
    for await (const entry of stores.suppressions.every(workspaceId)) {
      const done = await stores.suppressions.rekey(entry);
      suppressions[done === 'hashes-only' ? 'hashes_only' : done]++;
    }
    return { people, suppressions };
  };
}
