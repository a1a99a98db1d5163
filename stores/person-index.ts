import { createHash } from 'node:crypto';
import type { Database } from '../infra/database';
import { insertEach } from '../infra/duplicate-key';
import { asUnavailable } from '../infra/unavailable';
import type { Person } from '../infra/people';
import { personHashKeys, versionedKeys, type PersonHashKeys, type VersionedKey } from './person-keys';
import type { PersonIndexDoc } from '../infra/documents/person-index';

/**
 * Where a person's calls and interviews are, for an erasure and a suppression: under a keyed hash of each of
 * (workspace, candidate id), (workspace, email) and (workspace, phone) (infra/people.ts), the candidate
 * documents (one per project) that carry it; each candidate document lists its calls and interviews
 * (stores/candidates.ts). So finding a person is a few reads by exact `_id`, the one lookup FerretDB answers
 * from an index, where a query on the documents' fields reads every call there is (15 s at 50,000 calls on
 * FerretDB's SQLite backend, measured 2026-11-25). Filed by call/initiate and interview/invite with the
 * candidates, before their workflows start. Only the candidates' store uses it.
 *
 * A key's candidate documents are spread over BUCKETS buckets by a hash of the document's id, each bucket a
 * chain of slots written once apiece: `<key>/<bucket>`, `<key>/<bucket>.1`, `<key>/<bucket>.2`, …. Filing
 * inserts at the bucket's first free slot, in one unordered insert for a whole request (a duplicate `_id`
 * says the slot is taken, and reading the chain from there says whether it lists the document already and
 * where it ends; the next round inserts there, for those buckets only): never an update, and filing a
 * document again writes nothing.
 * FerretDB rewrites a whole document per update, so two requests adding to one document at once can each
 * overwrite the other's addition (5 of 400 lost with 8 at once, measured 2026-11-25), and reading back what
 * must be kept cost a person known from another job three updates and three reads per call (the benchmark,
 * 2026-11-27: call/initiate of 50 such people 4.7× the same for new people). The buckets and the doubling reads
 * keep the rounds few for a person in many projects: a second insert, after one read, for most of them.
 * Slots are only ever added, so a bucket's slots are the ones before its first missing one.
 */

/**
 * How many chains a key's candidate documents are spread over: finding a person (an erasure, an opt-out, a
 * call-back; rare) reads this many at once per key, and filing a person known from another job (common) finds
 * the bucket taken for one key in BUCKETS per earlier job, when FerretDB inserts the request's whole batch one
 * document at a time and the taken slots are read. 64 where 16 were (2026-11-28): call/initiate of 50 people
 * called before 1.11× the same for new people where it was 1.26×; finding one person by phone 29 ms where it
 * was 10, by three keys 50 where it was 25. Documents filed with 16 are in buckets 0 to 15, which finding reads
 * too. (The first byte of a SHA-256 divides evenly by 64.)
 */
const BUCKETS = 64;

/** One bucket's filing in progress: the documents still to file, the slot to insert at, and how many to read from it if taken. */
type Filing = { key: string; bucket: number; candidates: string[]; slot: number; window: number };

const slotId = (key: string, bucket: number, slot: number) => (slot === 0 ? `${key}/${bucket}` : `${key}/${bucket}.${slot}`);

/** `buckets`: BUCKETS; a test files with 16, as before 2026-11-28, to see those documents found. */
export function personIndex(db: Database, keys: PersonHashKeys = personHashKeys(db, []), buckets = BUCKETS) {
  const bucketOf = (candidateDocId: string) => createHash('sha256').update(candidateDocId).digest()[0] % buckets;
  const keysUnder = (key: VersionedKey, workspaceId: string, p: Person) =>
    versionedKeys(key, 'pi', workspaceId, p, ['candidate', 'email', 'phone']);
  /** The person's keys under the current secret: where they are filed. */
  const keysOf = async (workspaceId: string, p: Person) => keysUnder(await keys.current('person-index'), workspaceId, p);
  /** The person's keys under every secret they may have been filed with (stores/person-keys.ts). */
  const everyKeyOf = async (workspaceId: string, p: Person) =>
    (await keys.all('person-index')).flatMap((key) => keysUnder(key, workspaceId, p));

  /**
   * A key's chains of slots: its buckets' first slots at once, then each chain by exact `_id` up to its first
   * gap; and the key's one document as the index kept it before buckets (`_id` the key itself, its candidates
   * added to it in place; written until 2026-11-27), which is read as long as a database may hold one.
   */
  function chainsOf(key: string): Promise<PersonIndexDoc[][]> {
    return Promise.all([
      db.personIndex.findOne({ _id: key }).then((doc) => (doc ? [doc] : [])),
      ...Array.from({ length: buckets }, async (_, bucket) => {
        const slots: PersonIndexDoc[] = [];
        for (let doc = await db.personIndex.findOne({ _id: slotId(key, bucket, 0) }); doc;) {
          slots.push(doc);
          doc = await db.personIndex.findOne({ _id: slotId(key, bucket, slots.length) });
        }
        return slots;
      }),
    ]);
  }

  /**
   * Where a filing whose slot was found taken goes next, or null when the chain lists its documents already. The
   * `window` slots from the taken one are read (one at first: most chains are one slot long); a gap among them
   * is where it goes. With none, it tries the slot after them without reading it: a slot is added only after
   * the one before it, so a missing one ends the chain, and one found taken is read from in the next round,
   * with a window twice as large.
   */
  async function chainEnd<P extends Filing>(p: P): Promise<P | null> {
    const window = await Promise.all(
      Array.from({ length: p.window }, (_, n) => db.personIndex.findOne({ _id: slotId(p.key, p.bucket, p.slot + n) })),
    );
    let candidates = p.candidates;
    for (const slot of window) if (slot) candidates = candidates.filter((c) => !slot.candidates.includes(c));
    if (candidates.length === 0) return null;
    const free = window.findIndex((slot) => !slot);
    return free === -1 ? { ...p, slot: p.slot + p.window, window: p.window * 2, candidates } : { ...p, slot: p.slot + free, candidates };
  }

  return {
    /**
     * Files candidate documents under their people's keys, in each key's bucket for the document at its first
     * free slot: one unordered insert per round. From a slot found taken the chain is read to its end, and
     * what it lists is filed already (a repeated request, or one filing the same person at once); the rest is
     * tried in the next round at its first missing slot. So filing a document again writes nothing. False when a
     * write or a read failed: the caller then treats those candidates as not written. An outage throws
     * ServiceUnavailableError.
     */
    async file(workspaceId: string, people: Array<Person & { candidateDocId: string }>): Promise<boolean> {
      const byBucket = new Map<string, { key: string; bucket: number; candidates: string[] }>();
      for (const p of people) {
        const bucket = bucketOf(p.candidateDocId);
        for (const key of await keysOf(workspaceId, p)) {
          const b = byBucket.get(`${key}/${bucket}`) ?? { key, bucket, candidates: [] };
          if (!b.candidates.includes(p.candidateDocId)) b.candidates.push(p.candidateDocId);
          byBucket.set(`${key}/${bucket}`, b);
        }
      }
      let pending: Filing[] = [...byBucket.values()].map((b) => ({ ...b, slot: 0, window: 1 }));
      try {
        while (pending.length > 0) {
          const ids = pending.map((p) => slotId(p.key, p.bucket, p.slot));
          const written = await insertEach(
            db.personIndex,
            pending.map((p, i) => ({ _id: ids[i], workspace_id: workspaceId, candidates: p.candidates })),
          );
          if (written.includes('error')) return false;
          // A slot taken: the chain is read from it (chainEnd). What it lists is filed already; the rest goes
          // on to the chain's end (a chain has no gaps).
          const taken = pending.filter((_, i) => written[i] === 'duplicate');
          pending = (await Promise.all(taken.map(chainEnd))).filter((p) => p !== null);
        }
      } catch (err) {
        // The database gone (a stopping FerretDB cancels the commands it still runs): the request is a 503, as
        // for any other outage. Taken for a refusal, it made a call/initiate answer 200 with "please retry".
        const down = asUnavailable(err);
        if (down) throw down;
        return false; // a read that failed otherwise: the entries fail with a retry, which files them again
      }
      return true;
    },

    /** The ids of the person's calls and interviews in the workspace: their keys, then their candidate documents. */
    async find(workspaceId: string, p: Person): Promise<{ calls: string[]; interviews: string[] }> {
      const found = (await Promise.all((await everyKeyOf(workspaceId, p)).map(chainsOf))).flat(2);
      const candidateIds = [...new Set(found.flatMap((d) => (d.workspace_id === workspaceId ? d.candidates : [])))];
      const candidates = await Promise.all(candidateIds.map((id) => db.candidates.findOne({ _id: id })));
      const mine = candidates.filter((r) => r?.workspace_id === workspaceId);
      return {
        calls: [...new Set(mine.flatMap((r) => r!.calls ?? []))],
        interviews: [...new Set(mine.flatMap((r) => r!.interviews ?? []))],
      };
    },

    /**
     * Removes the person's keys made with an older secret, every slot of them (the person is filed under the
     * current one first): `admin people:rekey`. The number of documents removed.
     */
    async forgetOlderKeys(workspaceId: string, p: Person): Promise<number> {
      const [current, ...older] = await keys.all('person-index');
      if (!current) return 0;
      const gone = await Promise.all(
        older
          .flatMap((key) => keysUnder(key, workspaceId, p))
          .map(async (key) => {
            let removed = 0;
            for (const chain of await chainsOf(key)) {
              // The last slot first, so a removal cut short leaves the chain's first slots, still found.
              for (const s of chain.reverse()) removed += (await db.personIndex.deleteOne({ _id: s._id })).deletedCount;
            }
            return removed;
          }),
      );
      return gone.reduce<number>((n, g) => n + g, 0);
    },
  };
}
