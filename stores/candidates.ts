import type { AnyBulkWriteOperation } from 'mongodb';
import type { Database } from '../infra/database';
import { documentId, type CandidateDoc } from '../infra/documents/projects';
import { claim, claimEach, claimOf, release } from '../infra/claims';
import { bulkWriteEach, insertEach, type WriteResult } from '../infra/duplicate-key';
import type { Person } from '../infra/people';
import { personHashKeys, versionedKeys, type PersonHashKeys, type VersionedKey } from './person-keys';
import { personIndex } from './person-index';

export interface CandidateInput {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  custom_fields?: Record<string, string | number | boolean>;
}

export interface SavedCandidate {
  write: WriteResult;
  /** The candidate as it was before this request, when asked for; null for a new candidate. */
  previous: CandidateDoc | null;
}

/**
 * The claim that makes an email belong to one candidate id within a project, named by the email's keyed hash
 * (infra/people.ts), so the claims hold no address (docs/erasure.md).
 */
export const emailKey = (key: VersionedKey, projectId: string, email: string) =>
  `email/${projectId}/${versionedKeys(key, 'ec', projectId, { email }, ['email'])[0]}`;
/** The name such a claim had before it was keyed: the address itself, which an erasure removes. */
const plainEmailKey = (projectId: string, email: string) => `email/${projectId}/${email}`;

const ERASED = { name: '', email: '', phone: null, custom_fields: {} };

/**
 * The ATS's candidates, one document per (project, candidate id), each listing its calls or interviews; the
 * person index over them (stores/person-index.ts), where an erasure or a suppression finds a person's calls and
 * interviews; and the claims that give each email of a project to one candidate id.
 */
export function candidateStore(db: Database, keys: PersonHashKeys = personHashKeys(db, [])) {
  /** Who holds the email's claim in the project under any of `others`, the first found; null when none does. */
  const claimedUnder = async (others: VersionedKey[], projectId: string, email: string): Promise<string | null> =>
    (await Promise.all(others.map((key) => claimOf(db, emailKey(key, projectId, email))))).find((c) => c)?.holder ?? null;
  const index = personIndex(db, keys);
  // Claims are made under the current secret; `admin people:rekey` claims again the emails of older ones.
  const emailSecret = () => keys.current('email-claims');
  return {
    /**
     * Creates or updates the project's candidates with the callers' ids (name, email, phone and, when given,
     * custom_fields), each listing its call or interview of `resources`. New candidates, the common case of a bulk
     * request, cost one unordered insert for the whole batch; those the derived `_id` shows to exist already
     * are updated one command each, and read first by exact `_id` when the caller needs them as they were
     * (`previous`: their earlier email and phone). (On MongoDB alone, one bulk of upserts would do both in one
     * round trip; FerretDB runs each upsert as a lookup and a write of its own: 200 upserts into an empty
     * collection took 0.8 s where one insertMany of 200 took 15 ms.)
     */
    async save(
      workspaceId: string,
      projectId: string,
      inputs: CandidateInput[],
      opts: { previous: boolean; resources: { kind: 'calls' | 'interviews'; ids: string[] } },
    ): Promise<SavedCandidate[]> {
      const { kind, ids: resourceIds } = opts.resources;
      const now = new Date();
      const ids = inputs.map((c) => documentId.candidate(projectId, c.id));
      const inserted = await insertEach(
        db.candidates,
        inputs.map((c, i) => ({
          _id: ids[i],
          workspace_id: workspaceId,
          project_id: projectId,
          candidate_id: c.id,
          name: c.name,
          email: c.email,
          phone: c.phone,
          custom_fields: c.custom_fields ?? {},
          // The candidate's calls or interviews, where an erasure or a suppression finds them.
          [kind]: [resourceIds[i]],
          created_at: now,
          updated_at: now,
        })),
      );
      const saved: SavedCandidate[] = inserted.map((write) => ({ write, previous: null }));
      const existing = inserted.flatMap((o, i) => (o === 'duplicate' ? [i] : []));
      if (existing.length === 0) return saved;
      const previous = opts.previous ? await Promise.all(existing.map((i) => db.candidates.findOne({ _id: ids[i] }))) : [];
      const ops: AnyBulkWriteOperation<CandidateDoc>[] = existing.map((i) => {
        const c = inputs[i];
        return {
          updateOne: {
            filter: { _id: ids[i] },
            update: {
              $set: {
                name: c.name,
                email: c.email,
                phone: c.phone,
                updated_at: now,
                ...(c.custom_fields ? { custom_fields: c.custom_fields } : {}),
              },
              // In the update the candidate costs anyway: a known candidate's new call costs no write of its own.
              $addToSet: { [kind]: resourceIds[i] },
            },
          },
        };
      });
      const updated = await bulkWriteEach(db.candidates, ops);
      existing.forEach((i, n) => (saved[i] = { write: updated[n], previous: previous[n] ?? null }));
      return saved;
    },

    /**
     * Undoes what `save` did to candidates whose filing in the person index did not complete: a document it
     * created is deleted, an address it changed is put back. The next request then finds them new or changed,
     * and files them in the index, where otherwise it would find them filed (unchanged) and file nothing: its
     * calls and interviews would start where no erasure or suppression finds them.
     */
    async undoSave(projectId: string, inputs: CandidateInput[], saved: SavedCandidate[]): Promise<void> {
      await Promise.all(
        inputs.map((c, i) => {
          const { write, previous } = saved[i];
          const _id = documentId.candidate(projectId, c.id);
          if (write !== 'written') return undefined;
          if (!previous) return db.candidates.deleteOne({ _id });
          if (previous.email === c.email && previous.phone === c.phone) return undefined;
          return db.candidates.updateOne({ _id }, { $set: { email: previous.email, phone: previous.phone } });
        }),
      );
    },

    /**
     * Files in the person index the candidates whose document is new, or whose email or phone changed: a known
     * candidate's keys list its document already, and its new call or interview went into the document's own
     * update (`save`). So a repeated request writes and reads nothing here. False when a write failed.
     */
    fileInPersonIndex(workspaceId: string, projectId: string, inputs: CandidateInput[], saved: SavedCandidate[]): Promise<boolean> {
      const changed = inputs.filter((c, i) => {
        const before = saved[i].previous;
        return saved[i].write === 'written' && (!before || before.email !== c.email || before.phone !== c.phone);
      });
      return index.file(
        workspaceId,
        changed.map((c) => ({ candidateDocId: documentId.candidate(projectId, c.id), candidateId: c.id, email: c.email, phone: c.phone })),
      );
    },

    /**
     * Files a call or an interview made before the person index (admin people:index): its candidate's document
     * lists it, and the index files the candidate's id, email and phone, whatever was filed before. Repeatable.
     */
    async refile(workspaceId: string, projectId: string, input: CandidateInput, resource: { kind: 'calls' | 'interviews'; id: string }) {
      const [saved] = await this.save(workspaceId, projectId, [input], {
        previous: false,
        resources: { kind: resource.kind, ids: [resource.id] },
      });
      if (saved.write === 'error') throw new Error(`the candidate of ${resource.id} could not be saved`);
      const filed = await index.file(workspaceId, [
        { candidateDocId: documentId.candidate(projectId, input.id), candidateId: input.id, email: input.email, phone: input.phone },
      ]);
      if (!filed) throw new Error(`the person of ${resource.id} could not be filed`);
    },

    /** Removes a person's index keys made with an older secret, once filed under the current one (people:rekey). */
    forgetOlderKeys: (workspaceId: string, person: Person) => index.forgetOlderKeys(workspaceId, person),

    /** The ids of a person's calls and interviews in the workspace, by any of their candidate id, email and phone. */
    findPerson: (workspaceId: string, person: Person) => index.find(workspaceId, person),

    /** The workspaces with a candidate of this phone (a WhatsApp STOP's; FerretDB reads through, MongoDB by index). */
    workspacesOfPhone: (phone: string): Promise<string[]> => db.candidates.distinct('workspace_id', { phone }),

    /** Blanks the candidate's name, email, phone and fields (an erasure): the document stays, listing its calls and interviews. */
    async erase(projectId: string, candidateId: string): Promise<void> {
      await db.candidates.updateOne({ _id: documentId.candidate(projectId, candidateId) }, { $set: ERASED });
    },

    /**
     * Claims each email for its candidate id in the project, in one round trip: per email, `written` when this
     * candidate won it, `duplicate` when it was held already (read it with `emailOwner`), `error` when unknown.
     */
    async claimEmails(projectId: string, claims: Array<{ email: string; candidateId: string }>): Promise<WriteResult[]> {
      const [secret, ...others] = await keys.all('email-claims');
      // An email another candidate claimed under another key it may have been filed with (an earlier secret,
      // or the same secret's earlier label) is theirs: it is not claimed again under the current one.
      const before = await Promise.all(claims.map((c) => (others.length > 0 ? claimedUnder(others, projectId, c.email) : null)));
      const free = claims.filter((c, i) => before[i] === null || before[i] === c.candidateId);
      const written = await claimEach(
        db,
        free.map((c) => ({ key: emailKey(secret, projectId, c.email), holder: c.candidateId })),
      );
      return claims.map((c) => (free.includes(c) ? written[free.indexOf(c)] : 'duplicate'));
    },

    /** The candidate id an email of the project belongs to, claiming it for `candidateId` if it was freed meanwhile. */
    async emailOwner(projectId: string, email: string, candidateId: string): Promise<string> {
      const [secret, ...others] = await keys.all('email-claims');
      const key = emailKey(secret, projectId, email);
      return (
        (await claimOf(db, key))?.holder ??
        (others.length > 0 ? await claimedUnder(others, projectId, email) : null) ??
        (await claim(db, key, candidateId))
      );
    },

    /** Frees an email the candidate no longer has for another candidate of the project. */
    releaseEmail: async (projectId: string, email: string, candidateId: string) =>
      release(db, emailKey(await emailSecret(), projectId, email), candidateId),

    /** The `_id` of the claim on an email in a project (a test's or a seed's own arrangement). */
    emailClaimId: async (projectId: string, email: string) => emailKey(await emailSecret(), projectId, email),

    /**
     * An erasure's part of the claims: the person's email claims named by the address itself, as they were before
     * claims were keyed, go. Keyed claims stay, so the email still belongs to its candidate id in the project.
     */
    /** The email's claims in the project made with an older secret go, once it is claimed under the current one (people:rekey). */
    async forgetOlderEmailClaims(projectId: string, email: string): Promise<void> {
      const [, ...older] = await keys.all('email-claims');
      await Promise.all(older.map((key) => db.claims.deleteOne({ _id: emailKey(key, projectId, email) })));
    },

    async forgetPlainEmailClaims(projectIds: string[], emails: string[]): Promise<void> {
      await Promise.all(projectIds.flatMap((p) => emails.map((e) => db.claims.deleteOne({ _id: plainEmailKey(p, e) }))));
    },
  };
}

export type CandidateStore = ReturnType<typeof candidateStore>;
