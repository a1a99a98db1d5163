import type { CallDoc } from '../../infra/documents/calls';

/** The most attempts of these calls that were under way at one moment, from their recorded start and end. */
export function attemptsAtOnce(calls: CallDoc[]): number {
  const edges = calls
    .flatMap((c) => c.attempts)
    .flatMap((a) => [
      { at: a.started_at.getTime(), step: 1 },
      { at: a.ended_at!.getTime(), step: -1 },
    ])
    // An attempt that ends at the moment another starts has given its slot back first.
    .sort((x, y) => x.at - y.at || x.step - y.step);
  let now = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (now += e.step));
  return most;
}
