import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '../../infra/ids';
import { stopProcess } from '../services';
import { CallStatusKey, candidateSearchAttributes, InterviewStatusKey } from '../../workflows/search-attributes';
import { stackCpuMs } from './cpu';
import { initiate, invite } from './scenarios';
import type { BenchStack } from './stack';

/**
 * The engine's floor beside our own work: per round, 50 workflows of a completed call's shape with empty
 * bodies (scripts/bench/engine-floor/) and 50 real calls; then 200 of a sent invitation's shape and 200 real
 * invitations. For each, the CPU of the whole stack per item, from /proc, and the time from the request (the
 * floor's starts) until the last is done. The floor runs on a worker process of its own, started here, with
 * the same SDK and defaults as the service's worker.
 */
export interface EngineSeries {
  callFloorCpu: number[];
  callCpu: number[];
  callFloorMs: number[];
  callMs: number[];
  inviteFloorCpu: number[];
  inviteCpu: number[];
  inviteFloorMs: number[];
  inviteMs: number[];
}

const CALLS = 50;
const INVITES = 200;

/** Starts `n` floor workflows of `type` at once, with the search attributes a real one starts with, and waits for them all. */
export async function floorRun(
  stack: BenchStack,
  taskQueue: string,
  type: 'callFloorWorkflow' | 'invitationFloorWorkflow',
  n: number,
): Promise<{ cpu: number; ms: number; ids: string[] }> {
  const status = type === 'callFloorWorkflow' ? { key: CallStatusKey, value: 'scheduled' } : { key: InterviewStatusKey, value: 'queued' };
  const attrs = candidateSearchAttributes({
    workspace_id: stack.workspaceId,
    project_id: 'prj_floor',
    ats_job_id: 'floor',
    candidate_id: 'c',
  });
  const cpu = stackCpuMs();
  const t = performance.now();
  const handles = await Promise.all(
    Array.from({ length: n }, () =>
      stack.temporal.workflow.start(type, { workflowId: newId('floor'), taskQueue, typedSearchAttributes: [...attrs, status] }),
    ),
  );
  await Promise.all(handles.map((h) => h.result()));
  return { cpu: (stackCpuMs() - cpu) / n, ms: performance.now() - t, ids: handles.map((h) => h.workflowId) };
}

/** The floor's worker process (scripts/bench/engine-floor/worker.ts), polling its own task queue, warmed. */
export async function startFloorWorker(stack: BenchStack): Promise<{ taskQueue: string; pid: number; stop(): Promise<void> }> {
  const taskQueue = `${stack.env.TEMPORAL_TASK_QUEUE}-engine-floor`;
  const logFile = join(stack.logDir, 'engine-floor-worker.log');
  const out = openSync(logFile, 'a');
  const profile = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(__dirname, 'engine-floor', 'worker.ts')], {
    env: { ...process.env, TEMPORAL_ADDRESS: stack.env.TEMPORAL_ADDRESS, FLOOR_TASK_QUEUE: taskQueue },
    stdio: ['ignore', out, out],
  });
  try {
    for (let i = 0; !readFileSync(logFile, 'utf8').includes('floor worker started'); i++) {
      if (child.exitCode !== null || i > 1_200) throw new Error(`the engine floor's worker did not start; see ${logFile}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Warm: bundles evaluated, connections open.
    await floorRun(stack, taskQueue, 'callFloorWorkflow', 5);
    await floorRun(stack, taskQueue, 'invitationFloorWorkflow', 5);
  } catch (err) {
    await stopProcess(child, 15_000);
    throw err;
  }
  return { taskQueue, pid: child.pid!, stop: () => stopProcess(child, 15_000) };
}

export async function engineRounds(stack: BenchStack, rounds: number): Promise<EngineSeries> {
  const floorWorker = await startFloorWorker(stack);
  const { taskQueue } = floorWorker;
  const s: EngineSeries = {
    callFloorCpu: [],
    callCpu: [],
    callFloorMs: [],
    callMs: [],
    inviteFloorCpu: [],
    inviteCpu: [],
    inviteFloorMs: [],
    inviteMs: [],
  };
  try {
    for (let r = 0; r < rounds; r++) {
      const callFloor = await floorRun(stack, taskQueue, 'callFloorWorkflow', CALLS);
      let cpu = stackCpuMs();
      const calls = await initiate(stack, `bench-engine-calls-${r}`, CALLS);
      s.callCpu.push((stackCpuMs() - cpu) / CALLS);
      s.callFloorCpu.push(callFloor.cpu);
      s.callFloorMs.push(callFloor.ms);
      s.callMs.push(calls.response + calls.completed);

      const inviteFloor = await floorRun(stack, taskQueue, 'invitationFloorWorkflow', INVITES);
      cpu = stackCpuMs();
      const invites = await invite(stack, `bench-engine-invite-${r}`, INVITES);
      s.inviteCpu.push((stackCpuMs() - cpu) / INVITES);
      s.inviteFloorCpu.push(inviteFloor.cpu);
      s.inviteFloorMs.push(inviteFloor.ms);
      s.inviteMs.push(invites.sent);
      process.stderr.write(
        `  engine round ${r + 1}/${rounds}: call ${s.callCpu[r].toFixed(0)} core-ms (floor ${callFloor.cpu.toFixed(0)}), ` +
          `invitation ${s.inviteCpu[r].toFixed(0)} core-ms (floor ${inviteFloor.cpu.toFixed(0)})\n`,
      );
    }
    return s;
  } finally {
    await floorWorker.stop();
  }
}
