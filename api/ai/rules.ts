import type { Issue } from '../../shared/errors';
import { extractVariablesRules } from '../calls/rules';

/** Rules of generate-questions and generate-script that span fields: a range that is one, and sound extract_variables. */
export function jobBriefRules(input: unknown): Issue[] {
  const body = input as { min_experience?: unknown; max_experience?: unknown; extract_variables?: unknown };
  const issues: Issue[] = [];
  const { min_experience: min, max_experience: max } = body;
  if (typeof min === 'number' && typeof max === 'number' && max <= min) {
    issues.push({ path: ['max_experience'], message: `must be greater than min_experience (${min})` });
  }
  issues.push(...extractVariablesRules(body.extract_variables));
  return issues;
}
