import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { ActivityDeps } from '../../activities/deps';
import type { DialRequest, DialResult, VoiceProvider } from '../../providers/voice/port';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { testConfig, uniqueName } from '../helpers/stack';
import { buildActivityDeps } from '../../composition/activity-deps';
import { callDoc } from '../helpers/call-doc';
import type { Announce } from '../../infra/webhooks/events';

/**
 * The dial activity on its own, as the SDK's MockActivityEnvironment runs it (no worker, no workflow), on the
 * real database: each attempt reaches the provider once, however often the activity runs.
 */
describe('dial activity', () => {
  let db: Database;
  const placed: DialRequest[] = [];
  let lost: string | null = null;
  const voice: VoiceProvider = {
    name: 'counting',
    reportWithinMs: 90_000,
    async dial(req): Promise<DialResult> {
      placed.push(req);
      return { accepted: true, providerCallId: `prov-${req.callId}-${req.attempt}` };
    },
    // What the provider knows of a dial whose activity died before recording its id.
    findDial: async () => lost,
  };
  let acts: ReturnType<typeof createActivities>;

  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('acts'));
    const logger = createLogger('silent');
    // No Temporal here: the dial activity neither reports nor starts workflows.
    const deps: ActivityDeps = buildActivityDeps(
      testConfig(),
      { db, client: null as never, logger },
      { voice, logger, report: async () => 'recorded' },
    );
    acts = createActivities(deps);
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  async function newCall(): Promise<string> {
    const id = uniqueName('call');
    const call = callDoc(id);
    await db.calls.insertOne(call);
    return id;
  }

  it("places an attempt once, records it, and gives the provider's report bound; running it again dials nothing", async () => {
    const id = await newCall();
    const env = new MockActivityEnvironment();
    const first = await env.run(acts.dial, id, 1);
    const again = await env.run(acts.dial, id, 1);
    expect(first).toEqual({ accepted: true, providerCallId: `prov-${id}-1`, reportWithinMs: 90_000, callStatus: 'in_progress' });
    expect(again).toEqual(first);
    expect(placed.filter((p) => p.callId === id)).toHaveLength(1);
    const stored = (await db.calls.findOne({ _id: id }))!;
    expect(stored.attempts).toEqual([expect.objectContaining({ number: 1, provider: 'counting', provider_call_id: `prov-${id}-1` })]);
  });

  it('takes up a dial the provider placed before the activity died, instead of dialling again', async () => {
    const id = await newCall();
    // An earlier execution recorded the attempt and died before it could store the provider's id.
    await db.calls.updateOne(
      { _id: id },
      {
        $push: {
          attempts: {
            number: 1,
            provider: 'counting',
            provider_call_id: null,
            started_at: new Date(),
            ended_at: null,
            outcome: null,
            failure_reason: null,
          },
        },
      },
    );
    lost = `prov-lost-${id}`;
    try {
      const result = await new MockActivityEnvironment().run(acts.dial, id, 1);
      expect(result).toMatchObject({ accepted: true, providerCallId: lost });
      expect(placed.filter((p) => p.callId === id)).toHaveLength(0);
      expect((await db.calls.findOne({ _id: id }))!.attempts[0].provider_call_id).toBe(lost);
    } finally {
      lost = null;
    }
  });
});

/**
 * The take of a calling slot that shows a call scheduled (its first look, given the dial time) writes the
 * `call.scheduled` event and then announces it. A worker that dies between the two runs the local activity
 * again, and that run finds the write made: it must announce the event, or no one ever will.
 */
describe('calling slot take run again after its announcement was lost', () => {
  let db: Database;
  let acts: ReturnType<typeof createActivities>;
  const workspaceId = uniqueName('ws');
  /** The announcements that went out, as call id and event key; `dying` makes the next one fail instead. */
  const announced: string[] = [];
  let dying = false;
  /** Run at each announcement, which comes right after its change is written. */
  let onAnnounce: (() => Promise<void>) | null = null;
  const announce: Announce = async (_ws, ...events) => {
    await onAnnounce?.();
    if (dying) {
      dying = false;
      throw new Error('the worker died');
    }
    for (const e of events) {
      const a = await e.about();
      announced.push(`${a?.resourceId} ${a?.key}`);
    }
    return events.map(() => null);
  };

  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('acts'));
    const logger = createLogger('silent');
    await db.workspaces.insertOne({
      _id: workspaceId,
      name: 'Slots',
      sender: { first_name: 'Ada', last_name: 'Byron', company: 'Acme' },
      settings: { max_concurrent_calls: 1 },
      created_at: new Date(),
    });
    acts = createActivities(buildActivityDeps(testConfig(), { db, client: null as never, logger }, { logger, announce }));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  async function newCall(): Promise<string> {
    const id = uniqueName('call');
    await db.calls.insertOne(callDoc(id, { workspace_id: workspaceId }));
    return id;
  }
  // The SDK's own log of the failed runs stays out of the test's output.
  const env = () => new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });
  const take = (id: string, dialAt?: number) => env().run(acts.takeCallSlot, id, 1, 60_000, dialAt ?? null, Date.now());

  it('announces call.scheduled again when the run that took the slot died before announcing it', async () => {
    const id = await newCall();
    const dialAt = Date.now();
    dying = true;
    await expect(take(id, dialAt)).rejects.toThrow('the worker died');
    expect((await db.calls.findOne({ _id: id }))?.events).toEqual(['call.scheduled/1']);
    expect(announced.filter((a) => a.startsWith(id))).toEqual([]);
    expect(await take(id, dialAt)).toEqual({ taken: true, status: 'scheduled' });
    expect(announced.filter((a) => a.startsWith(id))).toEqual([`${id} call.scheduled/1`]);
    await env().run(acts.releaseCallSlot, id);
  });

  it('announces it again when the run that found every slot held died before announcing it, and not on later looks', async () => {
    const holder = await newCall();
    expect(await take(holder)).toEqual({ taken: true, status: 'scheduled' });
    const id = await newCall();
    const dialAt = Date.now();
    dying = true;
    await expect(take(id, dialAt)).rejects.toThrow('the worker died');
    expect(await db.calls.findOne({ _id: id })).toMatchObject({ status: 'waiting_for_capacity', events: ['call.scheduled/1'] });
    expect(await take(id, dialAt)).toEqual({ taken: false, status: 'waiting_for_capacity' });
    expect(announced.filter((a) => a.startsWith(id))).toEqual([`${id} call.scheduled/1`]);
    // A later look is not given the dial time: it announces nothing, however often it looks.
    expect(await take(id)).toEqual({ taken: false, status: 'waiting_for_capacity' });
    expect(announced.filter((a) => a.startsWith(id))).toHaveLength(1);
    await env().run(acts.releaseCallSlot, holder);
    expect(await take(id)).toEqual({ taken: true, status: 'waiting_for_capacity' });
    expect(announced.filter((a) => a.startsWith(id))).toHaveLength(1);
    await env().run(acts.releaseCallSlot, id);
  });

  it("gives an attempt's slot back only once its end is written, and run again frees no slot another call took since", async () => {
    const id = await newCall();
    expect(await take(id)).toEqual({ taken: true, status: 'scheduled' });
    const slot = `call-slot/${workspaceId}/0`;
    const attempt = {
      number: 1,
      provider: 'counting',
      provider_call_id: 'p-1',
      started_at: new Date(),
      ended_at: null,
      outcome: null,
      failure_reason: null,
    };
    await db.calls.updateOne({ _id: id }, { $set: { status: 'in_progress' }, $push: { attempts: attempt } });
    // The slot as the end's announcement finds it, right after the end is written: still the attempt's.
    const seen: Array<string | null> = [];
    onAnnounce = async () => void seen.push((await db.claims.findOne({ _id: slot }))?.holder ?? null);
    try {
      expect(await env().run(acts.completeCall, id, 1, Date.now())).toBe('completed');
    } finally {
      onAnnounce = null;
    }
    expect(seen).toEqual([`${id}/1`]);
    expect(await db.claims.findOne({ _id: slot })).toBeNull();
    // Another call takes the slot; the end run again (a retried activity) leaves it to that call.
    const next = await newCall();
    expect(await take(next)).toEqual({ taken: true, status: 'scheduled' });
    expect(await env().run(acts.completeCall, id, 1, Date.now())).toBe('completed');
    expect((await db.claims.findOne({ _id: slot }))?.holder).toBe(`${next}/1`);
    await env().run(acts.releaseCallSlot, next);
  });

  it("keeps an attempt's end time when its end is written again by a rerun with a later clock", async () => {
    const id = await newCall();
    const attempt = (n: number) => ({
      number: n,
      provider: 'counting',
      provider_call_id: `p-${n}`,
      started_at: new Date(),
      ended_at: null,
      outcome: null,
      failure_reason: null,
    });
    await db.calls.updateOne({ _id: id }, { $set: { status: 'in_progress' }, $push: { attempts: attempt(1) } });
    const first = Date.now();
    // A failed attempt, then its end again (a workflow task rerun after its worker died takes the result on its own clock).
    await env().run(acts.recordAttempt, id, 1, 'missed' as const, first);
    await env().run(acts.recordAttempt, id, 1, 'missed' as const, first + 10_000);
    expect((await db.calls.findOne({ _id: id }))!.attempts[0]).toMatchObject({ ended_at: new Date(first), outcome: 'failed' });
    // The same for the attempt that completes the call.
    await db.calls.updateOne({ _id: id }, { $set: { status: 'in_progress' }, $push: { attempts: attempt(2) } });
    await env().run(acts.completeCall, id, 2, first + 20_000);
    await env().run(acts.completeCall, id, 2, first + 30_000);
    expect((await db.calls.findOne({ _id: id }))!.attempts[1]).toMatchObject({ ended_at: new Date(first + 20_000), outcome: 'completed' });
  });
});
