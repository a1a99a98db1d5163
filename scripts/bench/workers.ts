import { join } from 'node:path';
import { adminStores } from '../../composition/admin-stores';
import { stackCpuMs } from './cpu';
import { initiate } from './scenarios';
import { startServiceProcess, type ServiceProcess } from './processes';
import type { BenchStack } from './stack';

/**
 * What an extra worker process buys on this machine (docs/scaling.md): per round, 4 requests of 25 calls sent
 * at once, with 1, then 2, then 3 workers on the same task queue. For each, the time from the requests until
 * all 100 completed and the CPU of the whole stack per call. The extra workers are stopped afterwards.
 */
export interface WorkerScaling {
  /** By worker count (1, 2, 3): the time until all completed, and CPU per call, one per round. */
  ms: number[][];
  cpu: number[][];
}

const REQUESTS = 4;
const PER_REQUEST = 25;

export async function workerScaling(stack: BenchStack, rounds: number): Promise<WorkerScaling> {
  // Every call dials at once: waiting for a calling slot is not what this measures.
  await adminStores(stack.store).workspaces.updateSettings(stack.workspaceId, { max_concurrent_calls: REQUESTS * PER_REQUEST });
  const extra: ServiceProcess[] = [];
  const result: WorkerScaling = { ms: [], cpu: [] };
  try {
    for (let workers = 1; workers <= 3; workers++) {
      if (workers > 1) extra.push(await startServiceProcess('worker', stack.env, join(stack.logDir, `worker-${workers}.log`)));
      const ms: number[] = [];
      const cpu: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const before = stackCpuMs();
        const t = performance.now();
        await Promise.all(Array.from({ length: REQUESTS }, (_, i) => initiate(stack, `bench-workers-${workers}-${r}-${i}`, PER_REQUEST)));
        ms.push(performance.now() - t);
        cpu.push((stackCpuMs() - before) / (REQUESTS * PER_REQUEST));
      }
      result.ms.push(ms);
      result.cpu.push(cpu);
      process.stderr.write(`  ${workers} worker(s): ${ms.map((x) => x.toFixed(0)).join(', ')} ms for ${REQUESTS * PER_REQUEST} calls\n`);
    }
    return result;
  } finally {
    for (const p of extra) await p.stop();
    await adminStores(stack.store).workspaces.updateSettings(stack.workspaceId, { max_concurrent_calls: 50 });
  }
}
