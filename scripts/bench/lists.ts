import type { Database } from '../../infra/database';
import { callList } from '../../infra/lists/calls';
import { FEED_SETTLE_MS } from '../../infra/lists/item-list';
import { documentId, type ProjectDoc } from '../../infra/documents/projects';
import type { CallDoc } from '../../infra/documents/calls';
import type { CallStatus } from '../../shared/calls/schema';
import { adminStores } from '../../composition/admin-stores';
import type { BenchStack } from './stack';
import { completedCall } from './seed';

/**
 * The lists (docs/lists.md), read through the API as an ATS reads them. Calls are stored as traffic leaves
 * them: listed when created, in 4 jobs per workspace, 70% completed, 20% failed, 10% scheduled. The page is
 * 100 calls of one job and status. Its floor is reading the same 100 call documents by `_id` in parallel from
 * the bench's own connection, measured beside it.
 */
export interface ListRows {
  small: number[];
  smallFloor: number[];
  /** The first read of the page, which stores the snapshots of calls never read or changed since creation. */
  smallCold: number;
  large: number[];
  largeFloor: number[];
  /** Reading 10,000 changes in pages of 100 with updated_since, ms. */
  feed: number;
  feedChanges: number;
  /** Its floor: the same calls read by `_id` from the bench's own connection, 100 at a time, page after page. */
  feedFloor: number;
}

const STATUSES: CallStatus[] = [
  'completed',
  'completed',
  'completed',
  'completed',
  'completed',
  'completed',
  'completed',
  'failed',
  'failed',
  'scheduled',
];
const READS = 21;

async function seedCalls(db: Database, workspaceId: string, n: number, start: number): Promise<CallDoc[]> {
  const list = callList(db);
  const all: CallDoc[] = [];
  for (let from = 0; from < n; from += 1_000) {
    const batch: CallDoc[] = [];
    for (let i = from; i < Math.min(n, from + 1_000); i++) {
      const job = `list-job-${i % 4}`;
      const project = { _id: documentId.project(workspaceId, job), ats_job_id: job } as ProjectDoc;
      // 50 calls per request, a request a second, as call/initiate stores them.
      const at = new Date(start + Math.floor(i / 50) * 1_000);
      const person = { name: `Listed ${i}`, email: `listed.${i}@example.com`, phone: '+14155550100' };
      batch.push({ ...completedCall(workspaceId, project, `listed-${i}`, person, at), status: STATUSES[i % STATUSES.length] });
    }
    await list.created(batch);
    await db.calls.insertMany(batch);
    all.push(...batch);
  }
  return all;
}

async function get(stack: BenchStack, key: string, path: string): Promise<any> {
  const res = await fetch(`${stack.apiUrl}/api/public/v1${path}`, { headers: { 'x-service-api-key': key } });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Page reads and their floors, interleaved. */
async function pages(stack: BenchStack, key: string): Promise<{ page: number[]; floor: number[]; cold: number }> {
  const path = '/calls?ats_job_id=list-job-0&status=completed&limit=100';
  let t = performance.now();
  const first = await get(stack, key, path);
  const cold = performance.now() - t;
  if (first.data.length !== 100) throw new Error(`a page of ${first.data.length}, not 100`);
  const ids: string[] = first.data.map((c: { id: string }) => c.id);
  const page: number[] = [];
  const floor: number[] = [];
  for (let r = 0; r < READS; r++) {
    t = performance.now();
    await get(stack, key, path);
    page.push(performance.now() - t);
    t = performance.now();
    await Promise.all(ids.map((id) => stack.store.calls.findOne({ _id: id })));
    floor.push(performance.now() - t);
  }
  return { page, floor, cold };
}

export async function lists(stack: BenchStack, stored: number): Promise<ListRows> {
  const start = Date.now() - 7 * 86_400_000;
  const spaces = await Promise.all(
    Array.from({ length: 10 }, (_, w) =>
      adminStores(stack.store).workspaces.create({
        name: `Lists ${w}`,
        company: 'Bench Inc',
        senderFirstName: 'Ada',
        senderLastName: 'Lovelace',
      }),
    ),
  );
  await seedCalls(stack.store, spaces[0].workspace_id, 1_000, start);
  const small = await pages(stack, spaces[0].api_key);
  process.stderr.write(`  lists: storing ${stored} calls across 10 workspaces\n`);
  const each = Math.floor((stored - 1_000) / 9);
  for (let w = 1; w < 10; w++) await seedCalls(stack.store, spaces[w].workspace_id, each, start);
  const large = await pages(stack, spaces[1].api_key);

  // The feed: 10,000 calls created, then each changed once, as finishCall changes them.
  const feedSpace = await adminStores(stack.store).workspaces.create({
    name: 'Feed',
    company: 'Bench Inc',
    senderFirstName: 'Ada',
    senderLastName: 'Lovelace',
  });
  // Created (50 a second for 200 s) before the feed starts.
  const calls = await seedCalls(stack.store, feedSpace.workspace_id, 10_000, Date.now() - 300_000);
  const since = new Date();
  const list = callList(stack.store);
  for (let i = 0; i < calls.length; i += 50) {
    await Promise.all(
      calls
        .slice(i, i + 50)
        .map((c) => list.update(c, { status: 'completed' }, (at) => ({ $set: { status: 'completed', updated_at: at } }))),
    );
  }
  await new Promise((r) => setTimeout(r, FEED_SETTLE_MS + 500));
  const t = performance.now();
  let changes = 0;
  let cursor: string | null = null;
  for (;;) {
    const page: any = await get(
      stack,
      feedSpace.api_key,
      `/calls?updated_since=${since.toISOString()}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    changes += page.data.length;
    cursor = page.next_cursor;
    if (page.data.length === 0) break;
  }
  const feed = performance.now() - t;
  const floorStarted = performance.now();
  for (let i = 0; i < calls.length; i += 100) {
    await Promise.all(calls.slice(i, i + 100).map((c) => stack.store.calls.findOne({ _id: c._id })));
  }
  const feedFloor = performance.now() - floorStarted;
  return {
    small: small.page,
    smallFloor: small.floor,
    smallCold: small.cold,
    large: large.page,
    largeFloor: large.floor,
    feed,
    feedChanges: changes,
    feedFloor,
  };
}
