import type { ExtractVariable } from './schema';

export interface ExtractedValues {
  /** Values of declared variables, each of its declared type. */
  values: Record<string, unknown>;
  /** One line per value that was dropped, saying why; the value itself is never kept. */
  notes: string[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(['true', 'yes']);
const FALSE = new Set(['false', 'no']);

type Coerced = { ok: true; value: unknown } | { ok: false; why: string };

/**
 * Checks what a provider extracted from a conversation against the call's extract_variables. A value that has
 * the declared type, or a lossless spelling of it ("3" for an integer, "Yes" for a boolean, a choice in other
 * case), is kept in that type; anything else is dropped with a note. Undeclared keys are dropped too, and
 * null or missing values mean "not captured" and are left out without a note.
 */
export function coerceExtracted(variables: ExtractVariable[], data: unknown): ExtractedValues {
  const values: Record<string, unknown> = {};
  const notes: string[] = [];
  if (data === null || data === undefined) return { values, notes };
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { values, notes: ['extracted data is not an object; nothing was kept'] };
  }
  const given = data as Record<string, unknown>;
  const declared = new Map(variables.map((v) => [v.label, v]));
  for (const [key, raw] of Object.entries(given)) {
    const variable = declared.get(key);
    if (!variable) {
      notes.push(`${key}: not a requested variable; dropped`);
      continue;
    }
    if (raw === null || raw === undefined) continue;
    const result = coerce(variable, raw);
    if (result.ok) values[key] = result.value;
    else notes.push(`${key}: ${result.why}; dropped`);
  }
  return { values, notes };
}

function coerce(v: ExtractVariable, raw: unknown): Coerced {
  switch (v.type) {
    case 'string':
      if (typeof raw === 'string') return raw.trim() ? { ok: true, value: raw.trim() } : { ok: false, why: 'empty text' };
      if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: String(raw) };
      return { ok: false, why: `expected text, got ${kindOf(raw)}` };
    case 'single_select': {
      if (typeof raw !== 'string') return { ok: false, why: `expected one of the choices, got ${kindOf(raw)}` };
      const choice = (v.choices ?? []).find((c) => c.trim().toLowerCase() === raw.trim().toLowerCase());
      return choice !== undefined ? { ok: true, value: choice } : { ok: false, why: 'not one of the choices' };
    }
    case 'boolean':
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (typeof raw === 'string' && TRUE.has(raw.trim().toLowerCase())) return { ok: true, value: true };
      if (typeof raw === 'string' && FALSE.has(raw.trim().toLowerCase())) return { ok: true, value: false };
      return { ok: false, why: `expected true or false, got ${kindOf(raw)}` };
    case 'integer': {
      const n = toNumber(raw);
      return n !== null && Number.isSafeInteger(n)
        ? { ok: true, value: n }
        : { ok: false, why: `expected a whole number, got ${kindOf(raw)}` };
    }
    case 'number': {
      const n = toNumber(raw);
      return n !== null ? { ok: true, value: n } : { ok: false, why: `expected a number, got ${kindOf(raw)}` };
    }
    case 'array': {
      if (!Array.isArray(raw)) return { ok: false, why: `expected a list, got ${kindOf(raw)}` };
      const items = raw.filter((x) => x !== null && x !== undefined);
      if (!items.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))) {
        return { ok: false, why: 'expected a list of text items' };
      }
      return { ok: true, value: items.map((x) => String(x).trim()).filter(Boolean) };
    }
    case 'date': {
      const m = typeof raw === 'string' ? DATE.exec(raw.trim()) : null;
      if (!m) return { ok: false, why: `expected a date (YYYY-MM-DD), got ${kindOf(raw)}` };
      const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
      const real = d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
      return real ? { ok: true, value: m[0] } : { ok: false, why: 'not a calendar date' };
    }
    case 'datetime': {
      if (typeof raw !== 'string' || !DATE_TIME.test(raw.trim())) {
        return { ok: false, why: `expected an ISO 8601 date-time with a time zone, got ${kindOf(raw)}` };
      }
      const t = Date.parse(raw.trim());
      return Number.isNaN(t) ? { ok: false, why: 'not a real date-time' } : { ok: true, value: new Date(t).toISOString() };
    }
  }
}

function toNumber(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string' && NUMERIC.test(raw.trim())) return Number(raw.trim());
  return null;
}

/** Names the kind of a dropped value without repeating it: extracted text may be personal data. */
function kindOf(raw: unknown): string {
  if (Array.isArray(raw)) return 'a list';
  if (raw === null) return 'null';
  if (typeof raw === 'string') return 'other text';
  if (typeof raw === 'object') return 'an object';
  return `a ${typeof raw}`;
}
