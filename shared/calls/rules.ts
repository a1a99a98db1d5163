import type { Issue } from '../errors';
import { unknownVariables, BUILT_IN_VARIABLES, CALL_LINK_VARIABLES } from '../template-variables';
import { DAYS, hasAnyShift, workingHoursApply } from './working-hours';
import { parseSimulatedOutcomes, SIMULATED_OUTCOMES } from './simulated-outcomes';
import type { CallInitiateRequest } from './schema';
import { CONSENT_CLOCK_SKEW_MS } from './consent';

/**
 * Rules of call/initiate that span fields, checked after the schema. They look only at parts that have the
 * right shape, so a request with schema errors still gets every rule violation listed too.
 */
export function callInitiateRules(input: unknown): Issue[] {
  const body = input as Partial<CallInitiateRequest>;
  const issues: Issue[] = [];
  const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

  const variables = (text: unknown, path: Issue['path'], withLink = false) => {
    if (typeof text !== 'string') return;
    const unknown = unknownVariables(text, withLink);
    if (unknown.length) {
      const known = withLink ? [...BUILT_IN_VARIABLES, ...CALL_LINK_VARIABLES] : BUILT_IN_VARIABLES;
      issues.push({
        path,
        message: `uses unknown variable${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `{{${u}}}`).join(', ')}; built-in variables are ${known.join(', ')}`,
      });
    }
  };
  variables(body.first_message, ['first_message']);
  variables(body.instructions, ['instructions']);

  if (Array.isArray(body.candidates)) {
    body.candidates.forEach((c, i) => {
      // A consent is given before the call that relies on it: one dated ahead of the clock was not given yet.
      const captured = isObj(c) && isObj(c.consent) && typeof c.consent.captured_at === 'string' ? Date.parse(c.consent.captured_at) : NaN;
      if (captured > Date.now() + CONSENT_CLOCK_SKEW_MS) {
        issues.push({
          path: ['candidates', i, 'consent', 'captured_at'],
          message: 'must not be in the future: consent is given before the call',
        });
      }
      if (!isObj(c) || !isObj(c.custom_fields) || !('simulated_outcomes' in c.custom_fields)) return;
      const { invalid } = parseSimulatedOutcomes(String(c.custom_fields.simulated_outcomes));
      if (invalid.length) {
        issues.push({
          path: ['candidates', i, 'custom_fields', 'simulated_outcomes'],
          message: `has unknown outcome ${invalid.join(', ')}; allowed: ${SIMULATED_OUTCOMES.join(', ')}`,
        });
      }
    });
  }

  issues.push(...extractVariablesRules(body.extract_variables));

  const a = body.assistant_settings;
  if (
    isObj(a) &&
    typeof a.min_endpointing_delay === 'number' &&
    typeof a.max_endpointing_delay === 'number' &&
    a.min_endpointing_delay > a.max_endpointing_delay
  ) {
    issues.push({ path: ['assistant_settings', 'max_endpointing_delay'], message: 'must not be less than min_endpointing_delay' });
  }

  const settings = body.call_settings;
  if (!isObj(settings)) return issues;

  const intervals = settings.retry_policy?.intervals;
  if (Array.isArray(intervals)) {
    intervals.forEach((iv, i) => {
      if (!isObj(iv)) return;
      const at = ['call_settings', 'retry_policy', 'intervals', i];
      if (iv.type === 'delay') {
        if (iv.duration === undefined) issues.push({ path: [...at, 'duration'], message: 'is required when type is delay' });
        if (iv.unit === undefined) issues.push({ path: [...at, 'unit'], message: 'is required when type is delay' });
      } else if (iv.type === 'specific_datetime' && iv.datetime === undefined) {
        issues.push({ path: [...at, 'datetime'], message: 'is required when type is specific_datetime' });
      }
    });
  }

  const hours = settings.working_hours;
  if (isObj(hours)) {
    for (const day of DAYS) {
      const shifts = hours[day];
      if (!Array.isArray(shifts)) continue;
      shifts.forEach((s, i) => {
        if (isObj(s) && Number.isInteger(s.start_minute) && Number.isInteger(s.end_minute) && s.start_minute >= s.end_minute) {
          issues.push({ path: ['call_settings', 'working_hours', day, i, 'end_minute'], message: 'must be greater than start_minute' });
        }
      });
    }
    if (workingHoursApply(hours) && DAYS.every((d) => hours[d] === undefined || Array.isArray(hours[d])) && !hasAnyShift(hours)) {
      issues.push({
        path: ['call_settings', 'working_hours'],
        message: 'must have at least one shift when enabled, or set enabled to false',
      });
    }
  }

  const whatsapp = settings.whatsapp_notifications;
  if (isObj(whatsapp)) {
    for (const kind of ['pre_call', 'fallback'] as const) {
      const vars = whatsapp[kind]?.template_variables;
      if (!isObj(vars)) continue;
      for (const [key, value] of Object.entries(vars)) {
        variables(value, ['call_settings', 'whatsapp_notifications', kind, 'template_variables', key], true);
      }
    }
  }
  return issues;
}

/** extract_variables rules shared by call/initiate and generate-script: choices for single_select, unique labels. */
export function extractVariablesRules(list: unknown): Issue[] {
  if (!Array.isArray(list)) return [];
  const issues: Issue[] = [];
  const labels = new Set<string>();
  list.forEach((v, i) => {
    if (typeof v !== 'object' || v === null) return;
    if (v.type === 'single_select' && !(Array.isArray(v.choices) && v.choices.length > 0)) {
      issues.push({ path: ['extract_variables', i, 'choices'], message: 'must list at least one choice for a single_select variable' });
    }
    if (typeof v.label === 'string') {
      if (labels.has(v.label)) issues.push({ path: ['extract_variables', i, 'label'], message: 'must be unique among extract_variables' });
      labels.add(v.label);
    }
  });
  return issues;
}
