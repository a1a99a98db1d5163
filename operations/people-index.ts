import type { OperationDeps } from './deps';

/** What admin people:index filed. */
export interface PeopleIndexed {
  calls: number;
  interviews: number;
  /** Erased records, which have no one left to file. */
  skipped: number;
}

/**
 * Files in the person index the calls and interviews made before it existed, so an erasure or a suppression
 * finds them (docs/erasure.md), and names their email claims by the address's keyed hash. Every record is walked,
 * oldest first, so a candidate ends with its latest details. Repeatable: a record filed already is filed again,
 * changing nothing. Run once after upgrading a deployment that has such records. Filed under the current
 * person hash secret, a record's keys and claims made with an older one go (stores/person-keys.ts).
 */
export function peopleIndexing({ stores }: Pick<OperationDeps, 'stores'>) {
  return async function indexPeople(workspaceId: string | null): Promise<PeopleIndexed> {
    const done: PeopleIndexed = { calls: 0, interviews: 0, skipped: 0 };
    for await (const call of stores.calls.every(workspaceId)) {
      if (call.erased_at) {
        done.skipped++;
        continue;
      }
      const { name, email, phone, custom_fields } = call.candidate;
      await stores.candidates.refile(
        call.workspace_id,
        call.project_id,
        { id: call.candidate_id, name, email, phone, custom_fields },
        { kind: 'calls', id: call._id },
      );
      await stores.candidates.forgetOlderKeys(call.workspace_id, { candidateId: call.candidate_id, email, phone });
      done.calls++;
    }
    for await (const interview of stores.interviews.every(workspaceId)) {
      if (interview.erased_at) {
        done.skipped++;
        continue;
      }
      const { name, email, phone } = interview.candidate;
      const input = { id: interview.candidate_id, name, email, phone };
      await stores.candidates.refile(interview.workspace_id, interview.project_id, input, { kind: 'interviews', id: interview._id });
      // The email's claim, named by its keyed hash now; the one named by the address goes.
      await stores.candidates.claimEmails(interview.project_id, [{ email, candidateId: interview.candidate_id }]);
      await stores.candidates.forgetPlainEmailClaims([interview.project_id], [email]);
      await stores.candidates.forgetOlderEmailClaims(interview.project_id, email);
      await stores.candidates.forgetOlderKeys(interview.workspace_id, { candidateId: interview.candidate_id, email, phone });
      done.interviews++;
    }
    return done;
  };
}
