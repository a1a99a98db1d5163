/**
 * A job's experience requirement in words ("2 to 5 years", "up to 1 year", "at least 3 years"), or null when
 * it states none. One wording for interview questions, call scripts and the language-model prompt.
 */
export function experienceInWords(job: { min_experience?: number | null; max_experience?: number | null }): string | null {
  const min = job.min_experience ?? null;
  const max = job.max_experience ?? null;
  const unit = (n: number) => (n === 1 ? 'year' : 'years');
  if (min !== null && max !== null) return min > 0 ? `${min} to ${max} ${unit(max)}` : `up to ${max} ${unit(max)}`;
  if (min !== null && min > 0) return `at least ${min} ${unit(min)}`;
  if (max !== null) return `up to ${max} ${unit(max)}`;
  return null;
}
