import { startHttpStub } from '../../test/helpers/http-stub';
import { stackCpuMs } from './cpu';
import { callCandidates } from './scenarios';
import type { BenchStack } from './stack';
import { untilEach } from './stack';

/**
 * The cost of webhooks: CPU of the whole stack per completed call, for 50 calls, without an endpoint and
 * with one subscribed to every event (each call announces 3, each delivered to a local receiver that answers
 * 204), in alternating rounds. The rounds with the endpoint end when the receiver has every event.
 */
export async function webhooks(stack: BenchStack, rounds: number): Promise<{ without: number[]; with: number[]; events: number }> {
  const receiver = await startHttpStub(() => ({ status: 204 }));
  const without: number[] = [];
  const withHook: number[] = [];
  const calls = async (job: string) => {
    await stack.post('/api/public/v1/campaigns', { ats_job_id: job, name: 'Bench webhooks' });
    const res = await stack.post('/api/public/v1/call/initiate', {
      ats_job_id: job,
      instructions: 'Ask {{candidate_first_name}} about availability.',
      candidates: callCandidates(50, 'w'),
    });
    const ids: string[] = res.data.calls.map((c: { id: string }) => c.id);
    await untilEach(ids, async (id) => (await stack.store.calls.findOne({ _id: id }))?.status === 'completed');
    return ids;
  };
  try {
    for (let r = 0; r < rounds; r++) {
      let cpu = stackCpuMs();
      await calls(`bench-hooks-off-${r}`);
      without.push((stackCpuMs() - cpu) / 50);

      const hook = await stack.post('/api/public/v1/webhooks', { url: `${receiver.url}/r${r}` });
      const before = receiver.requests.length;
      cpu = stackCpuMs();
      await calls(`bench-hooks-on-${r}`);
      await untilEach(['all'], async () => receiver.requests.length - before >= 150);
      withHook.push((stackCpuMs() - cpu) / 50);
      await fetch(`${stack.apiUrl}/api/public/v1/webhooks/${hook.data.id}`, {
        method: 'DELETE',
        headers: { 'x-service-api-key': stack.key },
      });
      process.stderr.write(
        `  webhooks round ${r + 1}/${rounds}: ${without[r].toFixed(0)} core-ms per call without, ${withHook[r].toFixed(0)} with\n`,
      );
    }
    return { without, with: withHook, events: receiver.requests.length };
  } finally {
    await receiver.close();
  }
}
