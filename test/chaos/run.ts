import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChaosStack } from './stack';
import type { Checks } from './checks';
import { apiKills, workerKills } from './process-kills';
import { databaseOutage, providerErrors, temporalOutage } from './outages';
import { load } from './load';
import { webhookKills } from './webhooks';
import { severalProcesses } from './scaling';

/**
 * `npm run chaos [-- --short]`: faults on real processes, each scenario printing what it checked. The
 * suite starts and kills every process itself, on loopback only, and every wait in it is bounded. Exit
 * status 1 when any check failed. `--short` is the version CI runs (a few minutes).
 */
async function main(): Promise<void> {
  const short = process.argv.includes('--short');
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const dir = mkdtempSync(join(process.env.CHAOS_DIR ?? tmpdir(), 'chaos-'));
  const stack = new ChaosStack(dir);
  const scenarios: Array<[string, () => Promise<Checks>]> = [
    ['a', () => workerKills(stack, { calls: short ? 21 : 50, kills: short ? 2 : 5, seed: 20261122 })],
    ['b', () => apiKills(stack)],
    ['c', () => databaseOutage(stack, { outageMs: short ? 8_000 : 20_000 })],
    ['d', () => temporalOutage(stack, { outageMs: short ? 8_000 : 20_000 })],
    ['e', () => providerErrors(stack, { failMs: short ? 4_000 : 8_000 })],
    ['f', () => load(stack, { clients: short ? 10 : 20, seconds: short ? 15 : 60 })],
    ['g', () => webhookKills(stack, { calls: short ? 12 : 30, cap: 3, kills: short ? 2 : 4 })],
    ['h', () => severalProcesses(stack, { calls: 40, cap: 8 })],
  ];
  const started = Date.now();
  let failed = 0;
  console.log(`chaos suite (${short ? 'short' : 'full'}), logs in ${dir}/logs`);
  try {
    await stack.start();
    for (const [id, run] of scenarios) {
      if (only && !only.includes(id)) continue;
      const t = Date.now();
      const checks = await run().catch((err: unknown) => {
        const c = {
          scenario: `(${id}) crashed`,
          lines: [] as string[],
          failures: [String((err as Error)?.stack ?? err)],
        } as unknown as Checks;
        return c;
      });
      failed += checks.failures.length;
      console.log(
        `\n(${id}) ${checks.scenario}: ${checks.failures.length === 0 ? 'PASS' : 'FAIL'} in ${((Date.now() - t) / 1000).toFixed(0)} s`,
      );
      for (const line of checks.lines) console.log(`  ✓ ${line}`);
      for (const line of checks.failures) console.log(`  ✗ ${line}`);
    }
  } finally {
    await stack.stop();
  }
  console.log(`\n${failed === 0 ? 'all checks passed' : `${failed} checks failed`} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(failed === 0 ? 0 : 1);
}

void main();
