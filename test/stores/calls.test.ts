import { connectDatabase, type Database } from '../../infra/database';
import { FEED_SETTLE_MS } from '../../infra/lists/item-list';
import type { Announce } from '../../infra/webhooks/events';
import { reportIntake } from '../../operations/call-reports';
import type { Stores } from '../../stores';
import { callEvents, callStore, type CallStore } from '../../stores/calls';
import { createLogger } from '../../infra/logger';
import { InvalidTransitionError } from '../../stores/resource-store';
import { callDoc } from '../helpers/call-doc';
import { uniqueName } from '../helpers/stack';
import { registry } from '../../infra/metrics';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The call store on the real database: the only door through which a call changes. What it writes is read
 * back through the lists' own pages, as GET /calls reads them.
 */
describe('call store', () => {
  let db: Database;
  let calls: CallStore;
  /** What the store asked to announce, in order: the workspace, the event's type and key. */
  const announced: Array<{ workspaceId: string; type: string; key: string | undefined }> = [];
  const announce: Announce = async (workspaceId, ...events) => {
    for (const h of events) announced.push({ workspaceId, type: h.type, key: (await h.about())?.key });
    return events.map(() => null);
  };
  const workspace = uniqueName('ws');

  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('stores'));
    calls = callStore({ db, announce, publicBaseUrl: 'https://hiring.example' });
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  async function newCall(job: string) {
    const call = callDoc(uniqueName('call'), { workspace_id: workspace, ats_job_id: job });
    expect(await calls.create([call])).toEqual(['written']);
    return call;
  }
  /** Every call of the job in the change feed since `since`, once the feed has settled. */
  async function feed(job: string, since: Date): Promise<string[]> {
    await sleep(FEED_SETTLE_MS + 200);
    const page = await calls.page(workspace, {
      match: { ats_job_id: job },
      createdSince: null,
      updatedSince: since,
      limit: 100,
      after: null,
    });
    return page.items.map((c) => c._id);
  }

  it("keeps an in-progress call in the change feed when the provider's live status arrives", async () => {
    const call = await newCall('feed-live-status');
    const since = new Date();
    const dialled = await calls.change(call, { to: 'in_progress', push: { attempts: { number: 1, started_at: new Date() } } });
    expect(dialled?.status).toBe('in_progress');
    // Vapi's status updates (ringing, in-progress) arrive during the attempt.
    const reports = reportIntake({ stores: { calls } as Stores, workflows: null as never, logger: createLogger('silent') });
    expect(await reports.providerStatus({ callId: call._id, attempt: 1 }, 'ringing')).toBe(true);
    const now = await db.calls.findOne({ _id: call._id });
    expect(now?.attempts[0].provider_status).toBe('ringing');
    expect(now?.updated_at).toEqual(dialled?.updated_at);
    expect(await feed('feed-live-status', since)).toEqual([call._id]);
  });

  it('refuses a note that would move updated_at or the status, so a write outside the feed cannot hide a call', async () => {
    const call = await newCall('feed-note');
    await expect(calls.note(call._id, { updated_at: new Date() })).rejects.toThrow(/updated_at/);
    await expect(calls.note(call._id, { status: 'completed' })).rejects.toThrow(/status/);
    await expect(calls.change(call, { set: { updated_at: new Date() } })).rejects.toThrow(/updated_at/);
  });

  it('checks every status move against the transition table, and leaves a refused call as it was', async () => {
    const call = await newCall('transitions');
    const ended = await calls.change(call, { to: 'cancelled', events: [callEvents.ended('cancelled')] });
    await expect(calls.change(ended!, { to: 'in_progress' })).rejects.toBeInstanceOf(InvalidTransitionError);
    await expect(calls.change(ended!, { to: 'scheduled' })).rejects.toBeInstanceOf(InvalidTransitionError);
    expect((await db.calls.findOne({ _id: call._id }))?.status).toBe('cancelled');
    // Staying put is always allowed (a retried step writes its change again).
    expect((await calls.change(ended!, { to: 'cancelled' }))?.status).toBe('cancelled');
  });

  it('records the events of a change in its write and announces them from the document it returned, once each', async () => {
    const call = await newCall('events');
    announced.length = 0;
    const scheduled = await calls.change(call, {
      to: 'scheduled',
      events: [callEvents.scheduled(call)],
      set: { next_attempt_at: new Date() },
    });
    expect(scheduled?.events).toEqual(['call.scheduled/1']);
    // The same change again (a retried activity): the key is recorded once, and announced again.
    const again = await calls.change(call, { to: 'scheduled', events: [callEvents.scheduled(call)] });
    expect(again?.events).toEqual(['call.scheduled/1']);
    expect(announced).toEqual([
      { workspaceId: workspace, type: 'call.scheduled', key: 'call.scheduled/1' },
      { workspaceId: workspace, type: 'call.scheduled', key: 'call.scheduled/1' },
    ]);
  });

  it('takes back what a request created: out of the lists and the collection', async () => {
    const call = await newCall('take-back');
    await calls.takeBack([call]);
    expect(await db.calls.findOne({ _id: call._id })).toBeNull();
    const page = await calls.page(workspace, {
      match: { ats_job_id: 'take-back' },
      createdSince: null,
      updatedSince: null,
      limit: 10,
      after: null,
    });
    expect(page.items).toEqual([]);
  });

  it('counts a call, its ended attempt and its end in the metrics once, however often a retried step writes them', async () => {
    const count = async () =>
      Object.fromEntries(
        (await registry.getMetricsAsJSON())
          .filter((m) => ['hiring_calls_started_total', 'hiring_call_attempts_total', 'hiring_calls_ended_total'].includes(m.name))
          .map((m) => [m.name, m.values.reduce((sum, v) => sum + v.value, 0)]),
      );
    const before = await count();
    const call = await newCall('job-metered');
    expect(await calls.create([call])).toEqual(['duplicate']);
    const attempt = { number: 1, started_at: new Date(), ended_at: new Date(), outcome: 'failed', failure_reason: 'missed' };
    const moved = await calls.change(call, { to: 'in_progress', push: { attempts: attempt } });
    // The step and its retry, which reads the call as the first write left it.
    const ended = await calls.change(moved!, { to: 'failed', events: [callEvents.attemptEnded(1), callEvents.ended('failed')] });
    await calls.change(ended!, { events: [callEvents.attemptEnded(1), callEvents.ended('failed')] });
    const after = await count();
    const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
    expect([delta('hiring_calls_started_total'), delta('hiring_call_attempts_total'), delta('hiring_calls_ended_total')]).toEqual([
      1, 1, 1,
    ]);
    const attempts = (await registry.getSingleMetric('hiring_call_attempts_total')!.get()).values;
    expect(attempts.find((v) => v.labels.failure_reason === 'missed')?.labels.outcome).toBe('failed');
  });
});
