import type { Issue } from '../errors';
import type { InviteRequest } from './schema';

/**
 * Rules of interview/invite that span fields, checked after the schema on the parts that have the right
 * shape, so one response lists every violation.
 */
export function inviteRules(input: unknown): Issue[] {
  const body = input as Partial<Record<keyof InviteRequest, unknown>>;
  const issues: Issue[] = experienceRangeRule(body);
  // Three skills that are one skill three times do not meet the minimum.
  for (const field of ['skills_required', 'skills_good_to_have'] as const) {
    const skills = body[field];
    if (!Array.isArray(skills)) continue;
    const seen = new Map<string, number>();
    skills.forEach((skill, i) => {
      if (typeof skill !== 'string') return;
      const key = skill.trim().toLowerCase();
      if (seen.has(key)) issues.push({ path: [field, i], message: `repeats ${field}[${seen.get(key)}]` });
      else seen.set(key, i);
    });
  }
  return issues;
}

/** max_experience must be above min_experience wherever a job carries both (invite, generate-questions, generate-script). */
export function experienceRangeRule(body: { min_experience?: unknown; max_experience?: unknown }): Issue[] {
  const { min_experience: min, max_experience: max } = body;
  return typeof min === 'number' && typeof max === 'number' && max <= min
    ? [{ path: ['max_experience'], message: `must be greater than min_experience (${min})` }]
    : [];
}
