import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { startBenchStack } from './bench/stack';
import { floor, initiate, invite, scale, SETTLE_MS } from './bench/scenarios';
import { seedWorkspace } from './bench/seed';
import { reports } from './bench/reports';
import { parseJd } from './bench/parse-jd';
import { lists } from './bench/lists';
import { pages } from './bench/pages';
import { webhooks } from './bench/webhooks';
import { engineRounds } from './bench/engine';
import { workerScaling } from './bench/workers';
import { live, type LiveResult } from './bench/live';
import { livePage, type LivePageResult } from './bench/live-page';
import { callCost, callCostRows } from './bench/call-cost';
import { median, ratios, seriesRow, type Row } from './bench/rows';
import { bulkRounds, bulkRows, repeatRounds, repeatRows } from './bench/growth';

/**
 * `npm run bench [-- --json]`: the service on one stack (FerretDB or MONGODB_URI, a fresh Temporal dev server,
 * the API and the worker in processes of their own), timed from the client's side. Speeds are reported as
 * ratios to the physical floor measured in the same run, interleaved with the operations, because absolute
 * times on a shared machine are noise. Rounds: BENCH_ROUNDS (5); stored candidates for the growth rounds:
 * BENCH_SEED_CANDIDATES (10000); calls held by the worker: BENCH_SCALE_CALLS (10000); calls stored for the
 * list rows: BENCH_LIST_CALLS (100000); interviews stored for the page rows: BENCH_PAGE_INTERVIEWS (10000).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SEED = Number(process.env.BENCH_SEED_CANDIDATES ?? 10_000);
const SCALE = Number(process.env.BENCH_SCALE_CALLS ?? 10_000);
const LISTED = Number(process.env.BENCH_LIST_CALLS ?? 100_000);
const PAGED = Number(process.env.BENCH_PAGE_INTERVIEWS ?? 10_000);
const LIVE = Number(process.env.BENCH_LIVE_CONVERSATIONS ?? 50);
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 60);
/** Conversations held in Chromium, one after the other, for what a candidate waits for. */
const LIVE_PAGES = Number(process.env.BENCH_LIVE_PAGES ?? 5);

/** What webhooks cost a call (scripts/bench/webhooks.ts), the whole bench's rows and BENCH_ONLY=webhooks's. */
function webhookRows(hooks: { without: number[]; with: number[] }): Row[] {
  return [
    seriesRow('50 calls completed: CPU of the whole stack per call', 'core-ms', hooks.without),
    seriesRow('  with a webhook endpoint subscribed to every event', 'core-ms', hooks.with),
    seriesRow('  ratio: with / without', '×', ratios(hooks.with, hooks.without), '≤ 1.25'),
  ];
}

/** The rows, as a table or (`--json`) one JSON object. */
function report(rows: Row[], json: boolean, flavour: string): void {
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memory_gib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify({ date: new Date().toISOString(), machine, database: flavour, rounds: ROUNDS, rows })}\n`);
  } else {
    const num = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
    const lines = rows.map(
      (r) =>
        `${r.scenario.padEnd(70)}${`${num(r.median)} ${r.unit}`.padStart(12)}${`${num(r.worst)} ${r.unit}`.padStart(12)}  ${r.target ?? ''}`,
    );
    process.stdout.write(
      [
        `\n${new Date().toISOString().slice(0, 10)}, ${ROUNDS} rounds, database ${flavour}, ${machine.cpus} × ${machine.cpu}, ${machine.memory_gib} GiB, Node ${machine.node}\n`,
        `${'scenario'.padEnd(70)}${'median'.padStart(12)}${'worst'.padStart(12)}  target`,
        ...lines,
        '',
      ].join('\n'),
    );
  }
}

/** A percentile of `xs` (NaN when there are none), and a row of one measured value. */
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const row = (scenario: string, unit: string, value: number, target?: string): Row => ({
  scenario,
  unit,
  median: value,
  worst: value,
  target,
});

/** What a candidate waits for, in Chromium (scripts/bench/live-page.ts). */
function livePageRows(r: LivePageResult): Row[] {
  return [
    row(`live interviews in Chromium: ${r.conversations}, one after the other; replies heard`, '', r.responseMs.length),
    row('  end of an answer to the reply heard: p50', 'ms', pct(r.responseMs, 0.5), '≤ 700'),
    row('  end of an answer to the reply heard: p95', 'ms', pct(r.responseMs, 0.95), '≤ 1200'),
    row("    ours (less the provider's own time): mean", 'ms', r.oursMeanMs, '≤ 150 (p95)'),
    row('  Start to the greeting heard: p50', 'ms', pct(r.firstAudioMs, 0.5), '≤ 1500'),
    row('  Start to the greeting heard: p95', 'ms', pct(r.firstAudioMs, 0.95), '≤ 3000'),
  ];
}

/** The live interviews' rows (scripts/bench/live.ts): the relay's added latency per frame, and CPU. */
function liveRows(r: LiveResult): Row[] {
  return [
    row(`live interviews: ${r.conversations} at once, audio in real time for ${Math.round(r.seconds)} s; turns answered`, '', r.turns),
    row(`  frames relayed: browser → provider`, '', r.inboundMs.length),
    row(`  frames relayed: provider → browser`, '', r.outboundMs.length),
    row(`  browser → provider, per frame: p50`, 'ms', pct(r.inboundMs, 0.5)),
    row(`  browser → provider, per frame: p95`, 'ms', pct(r.inboundMs, 0.95)),
    row(`  browser → provider, per frame: p99`, 'ms', pct(r.inboundMs, 0.99)),
    row(`    p95 as a ratio to the frame interval (${r.frameMs} ms)`, '×', pct(r.inboundMs, 0.95) / r.frameMs, '≤ 1'),
    row(`  provider → browser, per frame: p50`, 'ms', pct(r.outboundMs, 0.5)),
    row(`  provider → browser, per frame: p95`, 'ms', pct(r.outboundMs, 0.95)),
    row(`  provider → browser, per frame: p99`, 'ms', pct(r.outboundMs, 0.99)),
    row(`    p95 as a ratio to the frame interval (${r.frameMs} ms)`, '×', pct(r.outboundMs, 0.95) / r.frameMs, '≤ 1'),
    row('  CPU of the API process per conversation-minute', 'core-ms', r.cpuPerConversationMinute),
    row('    as a share of one core (a conversation-minute is 60,000 core-ms of one core)', '×', r.cpuPerConversationMinute / 60_000),
    row('    conversations one core could relay at that rate', '', 60_000 / r.cpuPerConversationMinute),
  ];
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const dir = mkdtempSync(join(tmpdir(), 'hiring-bench-'));
  const stack = await startBenchStack(dir);
  try {
    if (process.env.BENCH_ONLY === 'live')
      return report(
        [...liveRows(await live(stack, LIVE, LIVE_SECONDS)), ...livePageRows(await livePage(stack, LIVE_PAGES))],
        json,
        stack.flavour,
      );
    if (process.env.BENCH_ONLY === 'calls') {
      await initiate(stack, 'warm-calls', 5);
      return report(callCostRows(await callCost(stack, ROUNDS)), json, stack.flavour);
    }
    if (process.env.BENCH_ONLY === 'webhooks') {
      await initiate(stack, 'warm-calls', 5);
      const hooks = await webhooks(stack, ROUNDS);
      return report(webhookRows(hooks), json, stack.flavour);
    }
    if (process.env.BENCH_ONLY === 'growth') {
      // The bulk rounds alone, empty and then with SEED candidates stored (half with invitations): their growth.
      await floor(stack, 10);
      await initiate(stack, 'warm-calls', 5);
      await invite(stack, 'warm-invite', 10);
      const empty = await bulkRounds(stack, 'empty', 3_000_000, ROUNDS);
      process.stderr.write(`  storing ${SEED} candidates with their calls, invitations and claims\n`);
      await seedWorkspace(stack.store, stack.workspaceId, SEED);
      const full = await bulkRounds(stack, 'data', 3_100_000, ROUNDS);
      return report([...bulkRows(empty, full, SEED), ...repeatRows(await repeatRounds(stack))], json, stack.flavour);
    }
    process.stderr.write(`bench: ${ROUNDS} rounds, database ${stack.flavour}\n`);
    await floor(stack, 10);
    await initiate(stack, 'warm-calls', 5);
    await invite(stack, 'warm-invite', 10);
    const empty = await bulkRounds(stack, 'empty', 3_000_000, ROUNDS);
    process.stderr.write("  the engine's floor beside our calls and invitations\n");
    const engine = await engineRounds(stack, ROUNDS);
    process.stderr.write('  more workers on one stack\n');
    const scaling = await workerScaling(stack, ROUNDS);
    process.stderr.write(`  storing ${SEED} candidates with their calls, invitations and claims\n`);
    await seedWorkspace(stack.store, stack.workspaceId, SEED);
    const full = await bulkRounds(stack, 'data', 3_100_000, ROUNDS);
    const jd = await parseJd(stack, ROUNDS);
    process.stderr.write('  webhooks\n');
    const hooks = await webhooks(stack, ROUNDS);
    process.stderr.write(`  scale: ${SCALE} calls scheduled a week ahead\n`);
    const big = await scale(stack, SCALE);
    process.stderr.write('  provider reports\n');
    const rep = await reports(stack, ROUNDS);
    process.stderr.write('  lists\n');
    const listed = await lists(stack, LISTED);
    process.stderr.write('  pages\n');
    const [fewPages, manyPages] = await pages(stack, PAGED);
    process.stderr.write('  live interviews\n');
    const talked = await live(stack, LIVE, LIVE_SECONDS);

    const rows: Row[] = [];
    const ms = (scenario: string, xs: number[], target?: string) => rows.push(seriesRow(scenario, 'ms', xs, target));
    const ratio = (scenario: string, xs: number[], target?: string) => rows.push(seriesRow(scenario, '×', xs, target));
    rows.push(...bulkRows(empty, full, SEED));
    const coreMs = (scenario: string, xs: number[], target?: string) => rows.push(seriesRow(scenario, 'core-ms', xs, target));
    rows.push(...webhookRows(hooks));
    coreMs("engine floor: a completed call's shape, empty bodies (50 at once): CPU of the whole stack per workflow", engine.callFloorCpu);
    ms('  the 50, from their starts until all ended', engine.callFloorMs);
    coreMs('50 calls completed: CPU of the whole stack per call', engine.callCpu, '≤ 75');
    ratio('  ratio to the floor', ratios(engine.callCpu, engine.callFloorCpu), '≤ 1.5');
    ms('  the 50, from the request until all completed', engine.callMs);
    coreMs("engine floor: a sent invitation's shape, empty bodies (200 at once): CPU per workflow", engine.inviteFloorCpu);
    ms('  the 200, from their starts until all ended', engine.inviteFloorMs);
    coreMs('200 invitations sent: CPU of the whole stack per invitation', engine.inviteCpu, '≤ 55');
    ratio('  ratio to the floor', ratios(engine.inviteCpu, engine.inviteFloorCpu), '≤ 1.5');
    ms('  the 200, from the request until all emails sent', engine.inviteMs);
    scaling.ms.forEach((xs, i) => {
      ms(`${i === 0 ? '100 calls in 4 requests at once, 1 worker' : `  ${i + 1} workers`}: until all completed`, xs);
      if (i > 0) ratio('    ratio to 1 worker', ratios(xs, scaling.ms[0]));
      coreMs('    CPU of the whole stack per call', scaling.cpu[i]);
    });
    ms('parse-jd (offline model): response', jd.response);
    ms('offline parser alone, per job description', jd.parser);
    ms(`scale: ${SCALE} calls for next week (200 × 50, 4 clients): all accepted`, [big.accepted]);
    ms('  each request of 50', big.responses);
    ms('  until every workflow sleeps', [big.sleeping]);
    const mib = (scenario: string, bytes: number, target?: string) =>
      rows.push({ scenario, unit: 'MiB', median: bytes / 2 ** 20, worst: bytes / 2 ** 20, target });
    mib('  worker resident memory then', big.workerRss);
    mib(`  worker resident memory ${SETTLE_MS / 1000} s later, settled`, big.workerRssSettled, '≤ 512');
    ms('Vapi end-of-call reports, 50 at once: response', rep.report, 'median ≤ 100, worst ≤ 300');
    ms('  until all 50 calls completed', rep.completed);
    ms('GET /calls, 100 of one job and status, 1,000 stored: first read', [listed.smallCold]);
    ms('  read again', listed.small);
    ms('  floor: the same 100 calls read by _id', listed.smallFloor);
    ratio('  ratio to floor', ratios(listed.small, listed.smallFloor));
    ms(`  with ${LISTED} stored across 10 workspaces`, listed.large, '≤ 50');
    ratio('  growth: this / with 1,000 stored', [median(listed.large) / median(listed.small)], '≤ 1.2');
    ratio('  ratio to floor', ratios(listed.large, listed.largeFloor));
    ms(`change feed: ${listed.feedChanges} changes read in pages of 100`, [listed.feed], '≤ 5000');
    ms('  floor: the same calls read by _id, 100 at a time', [listed.feedFloor]);
    ratio('  ratio to floor', [listed.feed / listed.feedFloor]);
    for (const [p, label] of [
      [fewPages, '1,000'],
      [manyPages, manyPages.stored.toLocaleString('en-US')],
    ] as const) {
      const target = (t: string) => (p === manyPages ? t : undefined);
      ms(`interview page, ${label} interviews stored: first byte`, p.firstByte, target('≤ 50'));
      ms('  floor: its interview read by _id', p.firstByteFloor);
      ratio('  ratio to floor', ratios(p.firstByte, p.firstByteFloor));
      ms('  an answer saved', p.save, target('≤ 50'));
      ms('  a 10 MB recording uploaded', p.upload, target('≤ 1000'));
      ms('  dashboard: a project page of 100 candidates', p.dashboard, target('≤ 300'));
    }
    for (const [name, key] of [
      ['first byte', 'firstByte'],
      ['answer saved', 'save'],
      ['10 MB upload', 'upload'],
      ['dashboard page', 'dashboard'],
    ] as const) {
      ratio(
        `  growth of the ${name}: ${manyPages.stored.toLocaleString('en-US')} / 1,000 stored`,
        [median(manyPages[key]) / median(fewPages[key])],
        '≤ 1.2',
      );
    }

    rows.push(...liveRows(talked));
    report(rows, json, stack.flavour);
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Exits explicitly once the report is flushed: the Temporal client would otherwise keep the process alive.
main().then(
  () => process.stdout.write('', () => process.exit(0)),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
