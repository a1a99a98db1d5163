import { cpuSpent, stackCpuByPart } from './cpu';
import type { BenchStack } from './stack';

/**
 * What a piece of work cost each part of the stack, per item: the CPU of every process (from /proc), the
 * database's commands (FerretDB's own count, less this benchmark's own reads) and its wall time. For the
 * cost modes of the bench (scripts/bench/call-cost.ts).
 */

export interface Spend {
  /** Per item, by part: api, worker, floor (the floor's worker), temporal, database, client (this process). */
  cpu: Record<string, number>;
  /** Per item, by command; null when the database does not count them (not FerretDB). */
  commands: Record<string, number> | null;
  ms: number;
}

/** Commands every connection sends whatever the work: not the work's. */
const UPKEEP = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'buildInfo', 'endSessions', 'unknown', 'saslStart', 'saslContinue']);

async function databaseCommands(stack: BenchStack): Promise<Record<string, number> | null> {
  if (!stack.dbMetricsUrl) return null;
  const text = await (await fetch(stack.dbMetricsUrl)).text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^ferretdb_client_requests_total\{command="([^"]+)",opcode="OP_MSG"\} (\d+)$/gm)) {
    if (!UPKEEP.has(m[1])) counts[m[1]] = Number(m[2]) - (stack.ownCommands.get(m[1]) ?? 0);
  }
  return counts;
}

/** Runs `work` and tells what each part of the stack spent on it, per item. */
export async function measure<T>(
  stack: BenchStack,
  parts: Record<string, number>,
  items: number,
  work: () => Promise<T>,
): Promise<Spend & { result: T }> {
  const commands = await databaseCommands(stack);
  const cpu = stackCpuByPart(parts);
  const t = performance.now();
  const result = await work();
  const ms = performance.now() - t;
  const spent = cpuSpent(cpu, stackCpuByPart(parts));
  const after = await databaseCommands(stack);
  const perItem = (x: Record<string, number>) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, v / items]));
  return {
    result,
    ms,
    cpu: perItem(spent),
    commands: after && commands ? perItem(cpuSpent(commands, after)) : null,
  };
}

/** One history's events, counted by kind (the name of its attributes, less "EventAttributes"). */
export async function historyEvents(stack: BenchStack, workflowId: string): Promise<Record<string, number>> {
  const history = await stack.temporal.workflow.getHandle(workflowId).fetchHistory();
  const counts: Record<string, number> = { all: history.events?.length ?? 0 };
  for (const event of history.events ?? []) {
    const kind = Object.entries(event).find(([k, v]) => k.endsWith('EventAttributes') && v != null)?.[0];
    if (kind) counts[kind.replace(/EventAttributes$/, '')] = (counts[kind.replace(/EventAttributes$/, '')] ?? 0) + 1;
  }
  return counts;
}

/** The stack's CPU per item: every part but this benchmark's own process. */
export const stackOf = (s: Spend) => Object.entries(s.cpu).reduce((a, [k, v]) => (k === 'client' ? a : a + v), 0);
export const total = (c: Record<string, number> | null) => Object.values(c ?? {}).reduce((a, b) => a + b, 0);
