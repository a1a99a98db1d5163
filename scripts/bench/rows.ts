/** One line of the bench's report: the median of a scenario's rounds, and its worst. */
export type Row = { scenario: string; unit: string; median: number; worst: number; target?: string };

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
