/** One line of the bench's report: the median of a scenario's rounds, and its worst. */
export type Row = { scenario: string; unit: string; median: number; worst: number; target?: string };

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const worst = (xs: number[]) => Math.max(...xs);
/** Per-round ratios of an operation to the floor measured beside it. */
export const ratios = (op: number[], base: number[]) => op.map((x, i) => x / base[i]);

/** The row of a scenario's rounds: their median and their worst. */
export const seriesRow = (scenario: string, unit: string, xs: number[], target?: string): Row => ({
  scenario,
  unit,
  median: median(xs),
  worst: worst(xs),
  target,
});
