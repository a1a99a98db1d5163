import type { Issue } from '../errors';
import { extractVariablesRules } from '../calls/rules';
import { experienceRangeRule } from '../interviews/rules';

/** Rules of generate-questions and generate-script that span fields: a range that is one, and sound extract_variables. */
export function jobBriefRules(input: unknown): Issue[] {
  const body = input as { min_experience?: unknown; max_experience?: unknown; extract_variables?: unknown };
  return [...experienceRangeRule(body), ...extractVariablesRules(body.extract_variables)];
}
