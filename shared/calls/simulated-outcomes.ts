/**
 * The simulator voice provider reads the outcome of each attempt from the candidate's
 * `custom_fields.simulated_outcomes`: a comma-separated list, one entry per attempt, the last repeating.
 */
export const SIMULATED_OUTCOMES = [
  'completed',
  'missed',
  'declined',
  'sent_to_voicemail',
  'silenced',
  'abruptly_disconnected',
  'provider_error',
] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

export function parseSimulatedOutcomes(spec: unknown): { outcomes: SimulatedOutcome[]; invalid: string[] } {
  if (typeof spec !== 'string' || spec.trim() === '') return { outcomes: ['completed'], invalid: [] };
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const invalid = entries.filter((e) => !(SIMULATED_OUTCOMES as readonly string[]).includes(e));
  return { outcomes: entries.filter((e): e is SimulatedOutcome => !invalid.includes(e)), invalid };
}

export function outcomeForAttempt(outcomes: SimulatedOutcome[], attempt: number): SimulatedOutcome {
  if (outcomes.length === 0) return 'completed';
  return outcomes[Math.min(attempt, outcomes.length) - 1];
}
