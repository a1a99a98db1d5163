import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { ChaosStack } from './stack';
import { Checks, campaign, initiateBody, until } from './checks';

/** A person of this scenario alone, so finding any of them anywhere after the erasure means it came back. */
const PERSON = { id: 'erase-97', name: 'Quillon Erasmo', email: 'quillon.erasmo@example.com', phone: '+14159700001' };
const TRACES = ['Quillon', 'Erasmo', 'quillon.erasmo', '4159700001'];

/**
 * (i) An erasure that survives its processes: the person's call has an attempt under way (the fake Vapi holds
 * it), so the erasure's workflow files the suppression, cancels the call and waits; meanwhile the worker and
 * then the API are killed with SIGKILL and started again. Once the attempt ends, the erasure must finish on
 * its own, and nothing of the person may be left in any collection or any workflow history.
 */
export async function erasureKills(stack: ChaosStack): Promise<Checks> {
  const checks = new Checks('worker and API SIGKILL in the middle of an erasure');
  const job = 'chaos-erasure';
  await campaign(stack, job);
  stack.vapi.hold();
  const started = await stack.request('POST', '/api/public/v1/call/initiate', initiateBody(job, [PERSON]));
  const callId: string | undefined = started.body?.data?.calls?.[0]?.id;
  checks.that(started.status === 200 && !!callId, 'call/initiate accepted the person', started.body);
  const dialled = await until(
    () => stack.store.calls.findOne({ _id: callId }),
    (c) => c?.status === 'in_progress',
    60_000,
  );
  checks.that(dialled?.status === 'in_progress', 'their attempt was under way (the provider holds it)', dialled?.status);

  // The erasure's answer waits for the workflow; the kills come while it waits, so it is not awaited here.
  const asked = stack.request('POST', '/api/public/v1/candidates/erase', { phone: PERSON.phone }).catch(() => null);
  const running = await until(
    () => stack.store.erasures.find({}).toArray(),
    (docs) => docs.some((d) => d.status === 'running'),
    30_000,
    100,
  );
  const erasureId = running.find((d) => d.status === 'running')?._id;
  checks.that(!!erasureId, 'the erasure began (its document, running)', running);
  const cancelling = await until(
    () => stack.store.calls.findOne({ _id: callId }),
    (c) => c?.status === 'cancelling',
    30_000,
    100,
  );
  checks.that(cancelling?.status === 'cancelling', 'the call was told to cancel, its attempt still under way', cancelling?.status);

  await stack.worker.kill();
  stack.worker = await stack.startProcess('worker');
  await stack.api.kill();
  stack.api = await stack.startProcess('api');
  checks.note('worker killed and restarted, then the API, while the erasure waited for the attempt');
  const answered = await asked;
  checks.note(
    `the erasure's first request: ${answered && answered.status > 0 ? `answered ${answered.status}` : 'no answer (its API was killed)'}`,
  );

  stack.vapi.release();
  const done = await until(
    () => stack.store.erasures.findOne({ _id: erasureId }),
    (d) => d?.status === 'done',
    120_000,
  );
  checks.that(done?.status === 'done' && done.target === null, 'the erasure finished on its own, and what it named is gone', done);
  const call = await stack.store.calls.findOne({ _id: callId });
  checks.that(!!call?.erased_at && call.candidate.phone === '', 'the call is erased', { erased_at: call?.erased_at, status: call?.status });

  // Nothing of the person in any collection of the stack's database.
  const found: string[] = [];
  for (const { name } of await stack.store.db.listCollections().toArray()) {
    const text = JSON.stringify(await stack.store.db.collection(name).find({}).toArray());
    if (TRACES.some((t) => text.includes(t))) found.push(name);
  }
  checks.that(found.length === 0, 'nothing of the person in any collection', found);

  // Nor in any workflow history of the stack's task queue.
  const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS });
  try {
    const client = new Client({ connection });
    const named: string[] = [];
    let histories = 0;
    for await (const wf of client.workflow.list({ query: `TaskQueue = '${stack.env.TEMPORAL_TASK_QUEUE}'` })) {
      const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
      histories++;
      const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
      if (TRACES.some((t) => bytes.includes(t))) named.push(wf.workflowId);
    }
    checks.that(named.length === 0, `no workflow history names the person (${histories} read)`, named);
  } finally {
    await connection.close();
  }
  return checks;
}
