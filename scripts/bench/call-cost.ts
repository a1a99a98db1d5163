import { newId } from '../../infra/ids';
import { callWorkflowId } from '../../shared/workflow-starts';
import { cpuSpent, stackCpuByPart } from './cpu';
import { floorRun, startFloorWorker } from './engine';
import { floor, initiate } from './scenarios';
import type { BenchStack } from './stack';
import { median, type Row } from './rows';

/**
 * What a call costs, and where (`BENCH_ONLY=calls npm run bench`). Each round, on the one stack: 50 workflows
 * of a completed call's shape with empty bodies (the engine's floor, on a worker of their own), 50 new people
 * called until all completed, the same 50 people called again for another job (people the service already
 * knows: the common case, as an ATS calls the same people for several jobs), and floor(50) beside them. For
 * each, the CPU of every part of the stack per item (from /proc, the API and the worker apart), the database's
 * commands per item (FerretDB's own count, less this benchmark's own polling), and the API process's CPU while
 * the request was answered. Once: the history of one completed call beside one floor workflow's, by event.
 */

const N = 50;

export interface Spend {
  /** Per item, by part: api, worker, floor (the floor's worker), temporal, database, client (this process). */
  cpu: Record<string, number>;
  /** Per item, by command; null when the database does not count them (not FerretDB). */
  commands: Record<string, number> | null;
  ms: number;
}

export interface CallCostRound {
  floor: Spend;
  fresh: Spend & { response: number; apiCpu: number };
  known: Spend & { response: number; apiCpu: number };
  floor50: number;
}

export interface CallCost {
  rounds: CallCostRound[];
  /** Events of one history by kind: the call's and the floor's. */
  history: { call: Record<string, number>; floor: Record<string, number> };
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
async function measure<T>(
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
async function historyEvents(stack: BenchStack, workflowId: string): Promise<Record<string, number>> {
  const history = await stack.temporal.workflow.getHandle(workflowId).fetchHistory();
  const counts: Record<string, number> = { all: history.events?.length ?? 0 };
  for (const event of history.events ?? []) {
    const kind = Object.entries(event).find(([k, v]) => k.endsWith('EventAttributes') && v != null)?.[0];
    if (kind) counts[kind.replace(/EventAttributes$/, '')] = (counts[kind.replace(/EventAttributes$/, '')] ?? 0) + 1;
  }
  return counts;
}

export async function callCost(stack: BenchStack, rounds: number): Promise<CallCost> {
  const floorWorker = await startFloorWorker(stack);
  const parts = { api: stack.api.pid, worker: stack.worker.pid, floor: floorWorker.pid };
  const result: CallCost = { rounds: [], history: { call: {}, floor: {} } };
  try {
    let lastCall = '';
    let lastFloor = '';
    // New people: ids, emails and phone numbers no call has used (a band of numbers for each set).
    const peopleOf = (set: number) => ({ prefix: newId('n'), phones: 2_000_000 + set * 1_000 });
    const calls = async (job: string, people: { prefix: string; phones: number }) => {
      let apiAtAnswer: Record<string, number> = {};
      const before = stackCpuByPart(parts);
      const run = await measure(stack, parts, N, () =>
        initiate(stack, job, N, { ...people, onAnswered: () => (apiAtAnswer = stackCpuByPart(parts)) }),
      );
      lastCall = run.result.ids[0];
      const { result, ...spend } = run;
      return { ...spend, response: result.response, apiCpu: (apiAtAnswer.api ?? 0) - (before.api ?? 0) };
    };
    // The people of the round before are the known ones of this round: called once already, for another job.
    let previous = peopleOf(0);
    await calls('bench-cost-first', previous);
    for (let r = 0; r < rounds; r++) {
      const engine = await measure(stack, parts, N, () => floorRun(stack, floorWorker.taskQueue, 'callFloorWorkflow', N));
      lastFloor = engine.result.ids[0];
      const people = peopleOf(r + 1);
      // Which goes first alternates, so neither always follows the other's trailing work.
      const knownFirst = r % 2 === 1;
      const callKnown = () => calls(`bench-cost-known-${r}`, previous);
      const early = knownFirst ? await callKnown() : null;
      const fresh = await calls(`bench-cost-new-${r}`, people);
      const known = early ?? (await callKnown());
      previous = people;
      const floor50 = await floor(stack, N);
      const { result: _floorIds, ...floorSpend } = engine;
      result.rounds.push({ floor: floorSpend, fresh, known: known, floor50 });
      process.stderr.write(
        `  call cost round ${r + 1}/${rounds}: floor ${stackOf(floorSpend).toFixed(0)}, new ${stackOf(fresh).toFixed(0)}, ` +
          `known ${stackOf(known).toFixed(0)} core-ms per call; initiate new ${fresh.response.toFixed(0)} ms, ` +
          `known ${known.response.toFixed(0)} ms, floor(50) ${floor50.toFixed(0)} ms\n`,
      );
    }
    result.history = { call: await historyEvents(stack, callWorkflowId(lastCall)), floor: await historyEvents(stack, lastFloor) };
    return result;
  } finally {
    await floorWorker.stop();
  }
}

/** The stack's CPU per item: every part but this benchmark's own process. */
const stackOf = (s: Spend) => Object.entries(s.cpu).reduce((a, [k, v]) => (k === 'client' ? a : a + v), 0);
const total = (c: Record<string, number> | null) => Object.values(c ?? {}).reduce((a, b) => a + b, 0);

/** The rows of `BENCH_ONLY=calls`, as bench.ts prints them: medians over the rounds, and the worst. */
export function callCostRows({ rounds, history }: CallCost): Row[] {
  const rows: Row[] = [];
  const add = (scenario: string, unit: string, xs: number[], target?: string) =>
    rows.push({ scenario, unit, median: median(xs), worst: Math.max(...xs), target });
  const per = (pick: (r: CallCostRound) => number) => rounds.map(pick);
  add(
    "engine floor: 50 workflows of a completed call's shape, empty bodies: CPU of the stack per workflow",
    'core-ms',
    per((r) => stackOf(r.floor)),
  );
  for (const part of ['floor', 'temporal', 'database'])
    add(
      `  ${part === 'floor' ? "the floor's worker" : part}`,
      'core-ms',
      per((r) => r.floor.cpu[part] ?? 0),
    );
  add(
    '  the 50, from their starts until all ended',
    'ms',
    per((r) => r.floor.ms),
  );
  for (const [name, pick] of [
    ['new people', (r: CallCostRound) => r.fresh],
    ['people called before, for another job', (r: CallCostRound) => r.known],
  ] as const) {
    add(
      `50 calls of ${name}, until all completed: CPU of the stack per call`,
      'core-ms',
      per((r) => stackOf(pick(r))),
    );
    add(
      '  ratio to the floor',
      '×',
      per((r) => stackOf(pick(r)) / stackOf(r.floor)),
      '≤ 1.5',
    );
    for (const part of ['api', 'worker', 'temporal', 'database'])
      add(
        `  ${part}`,
        'core-ms',
        per((r) => pick(r).cpu[part] ?? 0),
      );
    add(
      "  this benchmark's requests and polling (not the stack's)",
      'core-ms',
      per((r) => pick(r).cpu.client ?? 0),
    );
    add(
      '  the 50, from the request until all completed',
      'ms',
      per((r) => pick(r).ms),
    );
    add(
      "  ratio to the floor's 50",
      '×',
      per((r) => pick(r).ms / r.floor.ms),
      '≤ 2',
    );
    if (rounds[0].fresh.commands) {
      add(
        '  database commands per call',
        '',
        per((r) => total(pick(r).commands)),
      );
      const names = [...new Set(rounds.flatMap((r) => Object.keys(pick(r).commands ?? {})))].sort();
      for (const c of names)
        add(
          `    ${c}`,
          '',
          per((r) => pick(r).commands?.[c] ?? 0),
        );
    }
  }
  add(
    'floor(50): insertMany 50 + 50 concurrent workflow starts',
    'ms',
    per((r) => r.floor50),
  );
  add(
    'call/initiate of 50 new people: response',
    'ms',
    per((r) => r.fresh.response),
  );
  add(
    '  CPU of the API process while answering, per call',
    'core-ms',
    per((r) => r.fresh.apiCpu / N),
  );
  add(
    'call/initiate of the same 50 for another job: response',
    'ms',
    per((r) => r.known.response),
  );
  add(
    '  ratio to the same request for new people',
    '×',
    per((r) => r.known.response / r.fresh.response),
    '≤ 1.2',
  );
  add(
    '  ratio to floor(50)',
    '×',
    per((r) => r.known.response / r.floor50),
    '≤ 1.3',
  );
  add(
    '  CPU of the API process while answering, per call',
    'core-ms',
    per((r) => r.known.apiCpu / N),
  );
  add(
    '    ratio to new people',
    '×',
    per((r) => r.known.apiCpu / Math.max(r.fresh.apiCpu, 1)),
  );
  const kinds = [...new Set([...Object.keys(history.call), ...Object.keys(history.floor)])];
  for (const k of kinds) {
    rows.push({
      scenario: `history of one completed call: ${k} (the floor's: ${history.floor[k] ?? 0})`,
      unit: '',
      median: history.call[k] ?? 0,
      worst: history.call[k] ?? 0,
    });
  }
  return rows;
}
