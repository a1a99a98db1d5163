import { newId } from '../../infra/ids';
import { callWorkflowId, interviewWorkflowId } from '../../shared/workflow-starts';
import { stackCpuByPart } from './cpu';
import { floorRun, startFloorWorker } from './engine';
import { floor, initiate, invite } from './scenarios';
import type { BenchStack } from './stack';
import { seriesRow, type Row } from './rows';
import { historyEvents, measure, stackOf, total, type Spend } from './spend';

/**
 * What a call costs, and where (`BENCH_ONLY=calls npm run bench`). Each round, on the one stack: 50 workflows
 * of a completed call's shape with empty bodies (the engine's floor, on a worker of their own), 50 new people
 * called until all completed, the same 50 people called again for another job (people the service already
 * knows: the common case, as an ATS calls the same people for several jobs), and floor(50) beside them. For
 * each, the CPU of every part of the stack per item (from /proc, the API and the worker apart), the database's
 * commands per item (FerretDB's own count, less this benchmark's own polling), and the API process's CPU while
 * the request was answered. Then 200 workflows of a sent invitation's shape and 200 invitations sent, the same
 * way. Once: the history of one completed call and of one sent invitation beside their floor workflows', by event.
 */

const N = 50;
const INVITES = 200;

export interface CallCostRound {
  floor: Spend;
  fresh: Spend & { response: number; apiCpu: number };
  known: Spend & { response: number; apiCpu: number };
  floor50: number;
  inviteFloor: Spend;
  invite: Spend & { response: number };
}

export interface CallCost {
  rounds: CallCostRound[];
  /** Events of one history by kind: a call's and an invitation's, each beside its floor workflow's. */
  history: {
    call: Record<string, number>;
    floor: Record<string, number>;
    invite: Record<string, number>;
    inviteFloor: Record<string, number>;
  };
}

export async function callCost(stack: BenchStack, rounds: number): Promise<CallCost> {
  const floorWorker = await startFloorWorker(stack);
  const parts = { api: stack.api.pid, worker: stack.worker.pid, floor: floorWorker.pid };
  const result: CallCost = { rounds: [], history: { call: {}, floor: {}, invite: {}, inviteFloor: {} } };
  try {
    let lastCall = '';
    let lastFloor = '';
    let lastInvite = '';
    let lastInviteFloor = '';
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
      const { result: inviteFloorRun, ...inviteFloor } = await measure(stack, parts, INVITES, () =>
        floorRun(stack, floorWorker.taskQueue, 'invitationFloorWorkflow', INVITES),
      );
      lastInviteFloor = inviteFloorRun.ids[0];
      const { result: sent, ...invited } = await measure(stack, parts, INVITES, () => invite(stack, `bench-cost-invite-${r}`, INVITES));
      lastInvite = sent.ids[0];
      result.rounds.push({ floor: floorSpend, fresh, known: known, floor50, inviteFloor, invite: { ...invited, response: sent.response } });
      process.stderr.write(
        `  call cost round ${r + 1}/${rounds}: floor ${stackOf(floorSpend).toFixed(0)}, new ${stackOf(fresh).toFixed(0)}, ` +
          `known ${stackOf(known).toFixed(0)} core-ms per call; initiate new ${fresh.response.toFixed(0)} ms, ` +
          `known ${known.response.toFixed(0)} ms, floor(50) ${floor50.toFixed(0)} ms; invitation ${stackOf(invited).toFixed(0)} ` +
          `core-ms (floor ${stackOf(inviteFloor).toFixed(0)})\n`,
      );
    }
    result.history = {
      call: await historyEvents(stack, callWorkflowId(lastCall)),
      floor: await historyEvents(stack, lastFloor),
      invite: await historyEvents(stack, interviewWorkflowId(lastInvite)),
      inviteFloor: await historyEvents(stack, lastInviteFloor),
    };
    return result;
  } finally {
    await floorWorker.stop();
  }
}

/** The rows of `BENCH_ONLY=calls`, as bench.ts prints them: medians over the rounds, and the worst. */
export function callCostRows({ rounds, history }: CallCost): Row[] {
  const rows: Row[] = [];
  const add = (scenario: string, unit: string, xs: number[], target?: string) => rows.push(seriesRow(scenario, unit, xs, target));
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
  add(
    "engine floor: 200 workflows of a sent invitation's shape, empty bodies: CPU of the stack per workflow",
    'core-ms',
    per((r) => stackOf(r.inviteFloor)),
  );
  for (const part of ['floor', 'temporal'])
    add(
      `  ${part === 'floor' ? "the floor's worker" : part}`,
      'core-ms',
      per((r) => r.inviteFloor.cpu[part] ?? 0),
    );
  const cases: Array<[string, string, (r: CallCostRound) => Spend, (r: CallCostRound) => Spend]> = [
    ['50 calls of new people, until all completed', 'call', (r) => r.fresh, (r) => r.floor],
    ['50 calls of people called before, for another job', 'call', (r) => r.known, (r) => r.floor],
    ['200 invitations, until every email sent', 'invitation', (r) => r.invite, (r) => r.inviteFloor],
  ];
  for (const [name, item, pick, floorOf] of cases) {
    add(
      `${name}: CPU of the stack per ${item}`,
      'core-ms',
      per((r) => stackOf(pick(r))),
    );
    add(
      '  ratio to the floor',
      '×',
      per((r) => stackOf(pick(r)) / stackOf(floorOf(r))),
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
      '  from the request until the last is done',
      'ms',
      per((r) => pick(r).ms),
    );
    add(
      "  ratio to the floor's",
      '×',
      per((r) => pick(r).ms / floorOf(r).ms),
      item === 'call' ? '≤ 2' : undefined,
    );
    if (rounds[0].fresh.commands) {
      add(
        `  database commands per ${item}`,
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
  for (const [what, mine, floor] of [
    ['one completed call', history.call, history.floor],
    ['one sent invitation', history.invite, history.inviteFloor],
  ] as const) {
    for (const k of [...new Set([...Object.keys(mine), ...Object.keys(floor)])]) {
      rows.push({
        scenario: `history of ${what}: ${k} (the floor's: ${floor[k] ?? 0})`,
        unit: '',
        median: mine[k] ?? 0,
        worst: mine[k] ?? 0,
      });
    }
  }
  return rows;
}
