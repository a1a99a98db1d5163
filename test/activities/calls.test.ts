import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import type { ActivityDeps } from '../../activities/deps';
import type { DialRequest, DialResult, VoiceProvider } from '../../providers/voice/port';
import { connectDatabase, type Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { testConfig, uniqueName } from '../helpers/stack';
import { buildActivityDeps } from '../../composition/activity-deps';
import { callDoc } from '../helpers/call-doc';

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
    expect(first).toEqual({ accepted: true, providerCallId: `prov-${id}-1`, reportWithinMs: 90_000 });
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
