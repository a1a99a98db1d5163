import { newId } from '../../infra/ids';
import { floor, initiate, invite } from './scenarios';
import type { BenchStack } from './stack';
import { median, ratios, seriesRow, type Row } from './rows';

/**
 * The bulk requests as a workspace fills (`BENCH_ONLY=growth`, and the whole bench's growth rows): call/initiate
 * and interview/invite of new people beside floor(50) and floor(200), in an empty workspace and then in one
 * holding stored data; and the same people invited to one job after another, which is what makes a request
 * grow with a person's history rather than with the workspace's size.
 */

/** Jobs the same people are invited to, one after the other. */
const REPEAT = 10;

export type Series = Record<string, number[]>;

/**
 * Each round: floor(50), call/initiate of 50, floor(200), interview/invite of 200, each waited out. The people
 * are new in every round (phone numbers from `phones` on), so what the growth rows compare is the workspace's
 * size, not how many jobs a person is in (that is repeatRounds' question).
 */
export async function bulkRounds(stack: BenchStack, label: string, phones: number, rounds: number): Promise<Series> {
  const s: Series = { floor50: [], calls: [], callsDone: [], floor200: [], invite: [], inviteSent: [] };
  for (let r = 0; r < rounds; r++) {
    s.floor50.push(await floor(stack, 50));
    const c = await initiate(stack, `${label}-calls-${r}`, 50, { prefix: newId('k'), phones: phones + r * 1_000 });
    s.calls.push(c.response);
    s.callsDone.push(c.completed);
    s.floor200.push(await floor(stack, 200));
    const i = await invite(stack, `${label}-invite-${r}`, 200);
    s.invite.push(i.response);
    s.inviteSent.push(i.sent);
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    process.stderr.write(
      `  ${label} round ${r + 1}/${rounds}: floor(50) ${ms(s.floor50[r])}, call/initiate ${ms(c.response)}; floor(200) ${ms(s.floor200[r])}, invite ${ms(i.response)}\n`,
    );
  }
  return s;
}

/** The same 200 people invited to REPEAT jobs one after the other: each request's response, in order. */
export async function repeatRounds(stack: BenchStack): Promise<number[]> {
  const prefix = newId('again');
  const out: number[] = [];
  for (let job = 0; job < REPEAT; job++) {
    out.push((await invite(stack, `again-${prefix}-${job}`, 200, prefix)).response);
    process.stderr.write(`  the same 200 people, job ${job + 1}/${REPEAT}: invite ${out[job].toFixed(0)} ms\n`);
  }
  return out;
}

export function repeatRows(responses: number[]): Row[] {
  const row = (scenario: string, unit: string, x: number): Row => ({ scenario, unit, median: x, worst: x });
  return [
    row('interview/invite of the same 200 people: their first job', 'ms', responses[0]),
    row('  their second job', 'ms', responses[1]),
    row('    ratio to the first', '×', responses[1] / responses[0]),
    row(`  their ${REPEAT}th job`, 'ms', responses[REPEAT - 1]),
    row('    ratio to the first', '×', responses[REPEAT - 1] / responses[0]),
  ];
}

/** The bulk rounds' rows: calls and invitations in an empty workspace, then in one holding `seeded` candidates. */
export function bulkRows(empty: Series, full: Series, seeded: number): Row[] {
  const rows: Row[] = [];
  const ms = (scenario: string, xs: number[], target?: string) => rows.push(seriesRow(scenario, 'ms', xs, target));
  const ratio = (scenario: string, xs: number[], target?: string) => rows.push(seriesRow(scenario, '×', xs, target));
  ms('floor(50): insertMany 50 + 50 concurrent workflow starts', empty.floor50);
  ms('call/initiate, 50 candidates: response', empty.calls);
  ratio('  ratio to floor(50)', ratios(empty.calls, empty.floor50), '≤ 1.3');
  ms('  until all 50 calls completed, after the response', empty.callsDone);
  ratio('  ratio to floor(50)', ratios(empty.callsDone, empty.floor50), '≤ 2');
  ms('floor(200)', empty.floor200);
  ms('interview/invite, 200 candidates: response', empty.invite);
  ratio('  ratio to floor(200)', ratios(empty.invite, empty.floor200), '≤ 1.3');
  ms('  until all 200 emails sent, from the request', empty.inviteSent);
  ratio('  ratio to floor(200)', ratios(empty.inviteSent, empty.floor200), '≤ 3');
  ms(`with ${seeded} candidates stored: floor(50)`, full.floor50);
  ms('  call/initiate, 50 candidates: response', full.calls);
  ratio('  growth: with data / empty', [median(full.calls) / median(empty.calls)], '≤ 1.2');
  ratio('  growth of the ratio to floor(50)', [median(ratios(full.calls, full.floor50)) / median(ratios(empty.calls, empty.floor50))]);
  ms('  floor(200)', full.floor200);
  ms('  interview/invite, 200 candidates: response', full.invite);
  ratio('  growth: with data / empty', [median(full.invite) / median(empty.invite)], '≤ 1.2');
  ratio('  growth of the ratio to floor(200)', [median(ratios(full.invite, full.floor200)) / median(ratios(empty.invite, empty.floor200))]);
  return rows;
}
