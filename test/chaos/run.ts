import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectGarbageLessForTests } from '../../scripts/services';
import { ChaosStack, serviceCode } from './stack';
import type { Checks } from './checks';
import { apiKills, workerKills } from './process-kills';
import { databaseOutage, providerErrors, temporalOutage } from './outages';
import { load } from './load';
import { webhookKills } from './webhooks';
import { severalProcesses } from './scaling';
import { erasureKills } from './erasure-kills';

type Scenario = [id: string, run: (stack: ChaosStack) => Promise<Checks>];

/**
 * `npm run chaos [-- --short]`: faults on real processes, each scenario printing what it checked. The
 * suite starts and kills every process itself, on loopback only, and every wait in it is bounded. Exit
 * status 1 when any check failed. `--short` is the version CI runs (about 80 s).
 *
 * The scenarios run in four groups side by side, each group on a whole stack of its own (database, Temporal,
 * API, worker, provider stand-ins) and its scenarios one after the other: no group sees another's processes
 * killed or servers stopped, and most of a scenario's time is waiting (for calls, kills, outages), which
 * the groups share. The groups are balanced by the short run's times in CI (2026-11-29): the database's
 * outage (c), the longest, has its group to itself; the load (f), whose calls keep its stack busy after it,
 * ends its group; Temporal's outage (d) follows the webhooks' kills (g), whose calls and deliveries have all
 * ended by then; and the erasure's kills (i) follow the processes of (h), which stops the API and worker it
 * added, with the API's kill (b) after them.
 */
async function main(): Promise<void> {
  const short = process.argv.includes('--short');
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  // (a)'s kill times, from a seeded generator: `--seed=N` repeats a run's, or tries others.
  const seed = Number(process.argv.find((a) => a.startsWith('--seed='))?.slice('--seed='.length) ?? 20261122);
  const all: Scenario[][] = [
    [
      ['a', (s) => workerKills(s, { calls: short ? 21 : 50, kills: short ? 2 : 5, seed })],
      ['e', (s) => providerErrors(s, { failMs: short ? 4_000 : 8_000 })],
      ['f', (s) => load(s, { clients: short ? 10 : 20, seconds: short ? 15 : 60 })],
    ],
    [['c', (s) => databaseOutage(s, { outageMs: short ? 8_000 : 20_000 })]],
    [
      ['g', (s) => webhookKills(s, { calls: short ? 12 : 30, cap: 3, kills: short ? 2 : 4 })],
      ['d', (s) => temporalOutage(s, { outageMs: short ? 8_000 : 20_000 })],
    ],
    [
      ['h', (s) => severalProcesses(s, { calls: 40, cap: 8 })],
      ['i', (s) => erasureKills(s)],
      ['b', (s) => apiKills(s)],
    ],
  ];
  const groups = all.map((group) => group.filter(([id]) => !only || only.includes(id))).filter((group) => group.length > 0);
  collectGarbageLessForTests();
  const dir = mkdtempSync(join(process.env.CHAOS_DIR ?? tmpdir(), 'chaos-'));
  const started = Date.now();
  console.log(
    `chaos suite (${short ? 'short' : 'full'}), ${groups.length} stacks side by side, logs in ${dir}/<stack>/logs (kept when a check fails)`,
  );
  const code = serviceCode(join(dir, 'code'));
  const failed = await Promise.all(groups.map((group, i) => runGroup(new ChaosStack(join(dir, `stack-${i + 1}`), code), group)));
  const failures = failed.reduce((a, b) => a + b, 0);
  console.log(`\n${failures === 0 ? 'all checks passed' : `${failures} checks failed`} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  // The stacks' databases and logs (about 60 MB) go once every check passed; a failure's stay to be read.
  if (failures === 0) rmSync(dir, { recursive: true, force: true });
  else console.log(`logs kept in ${dir}`);
  process.exit(failures === 0 ? 0 : 1);
}

/** Runs a group's scenarios one after the other on its stack, printing each one's checks as it ends; the failures. */
async function runGroup(stack: ChaosStack, scenarios: Scenario[]): Promise<number> {
  let failed = 0;
  try {
    await stack.start();
    for (const [id, run] of scenarios) {
      const t = Date.now();
      const checks = await run(stack).catch((err: unknown) => crashed(id, err));
      failed += checks.failures.length;
      const lines = [
        `\n(${id}) ${checks.scenario}: ${checks.failures.length === 0 ? 'PASS' : 'FAIL'} in ${((Date.now() - t) / 1000).toFixed(0)} s`,
        ...checks.lines.map((line) => `  ✓ ${line}`),
        ...checks.failures.map((line) => `  ✗ ${line}`),
      ];
      console.log(lines.join('\n'));
    }
  } catch (err) {
    const checks = crashed(scenarios.map(([id]) => id).join(', '), err);
    console.log(`\n${checks.scenario}\n  ✗ ${checks.failures[0]}`);
    failed += 1;
  } finally {
    await stack.stop();
  }
  return failed;
}

function crashed(id: string, err: unknown): Checks {
  return { scenario: `(${id}) crashed`, lines: [], failures: [String((err as Error)?.stack ?? err)] } as unknown as Checks;
}

void main();
