import { Kind, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import './formats';
import { findHyperlink } from './jobs/hyperlinks';
import { ValidationError, type Issue, type Path } from './errors';
import { CUSTOM_FIELD_KEY, CUSTOM_FIELD_KEY_MESSAGE, ONE_LINE, ONE_LINE_MESSAGE } from './schema-builders';

/**
 * Compiles a request schema once (at module load) into a function that applies defaults and either returns
 * the typed value or throws a ValidationError listing every violation with its path.
 */
export function compileValidator<T extends TSchema>(schema: T, extraRules?: (value: unknown) => Issue[]) {
  const check = TypeCompiler.Compile(schema);
  return (input: unknown): Static<T> => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new ValidationError('Request validation failed', [{ path: [], message: 'Request body must be a JSON object' }]);
    }
    const value = Value.Default(schema, structuredClone(input));
    const issues = check.Check(value) ? [] : dedupe([...check.Errors(value)].map(toIssue));
    if (extraRules) issues.push(...extraRules(value));
    if (issues.length > 0) throw new ValidationError('Request validation failed', issues);
    return value as Static<T>;
  };
}

export function pointerToPath(pointer: string): Path {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^(0|[1-9][0-9]*)$/.test(seg) ? Number(seg) : seg));
}

function toIssue(error: ValueError): Issue {
  return { path: pointerToPath(error.path), message: describe(error) };
}

// A failing union or format can yield several errors at one path; the first says it best.
function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = JSON.stringify(i.path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describe(error: ValueError): string {
  const s = error.schema as Record<string, any>;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.ObjectAdditionalProperties:
      return s.patternProperties?.[CUSTOM_FIELD_KEY] ? CUSTOM_FIELD_KEY_MESSAGE : 'is not a recognised field';
    case ValueErrorType.StringMinLength:
      return s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters long`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${s.maxLength} characters long`;
    case ValueErrorType.StringFormat:
      if (s.format === 'no-hyperlinks') return `must not contain hyperlinks (found a ${findHyperlink(String(error.value))})`;
      return s.errorMessage ?? `must be a valid ${s.format}`;
    case ValueErrorType.StringPattern:
      // A one-line text's message is for a blank value; one that is not blank broke the line.
      if (s.pattern === ONE_LINE.pattern && /\S/.test(String(error.value))) return ONE_LINE_MESSAGE;
      return s.errorMessage ?? 'has an invalid format';
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${s.maxItems} items`;
    case ValueErrorType.ArrayUniqueItems:
      return 'must not repeat a value';
    case ValueErrorType.ObjectMaxProperties:
      return `must have at most ${s.maxProperties} keys`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${s.minimum}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${s.maximum}`;
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return `must be greater than ${s.exclusiveMinimum}`;
    case ValueErrorType.Union:
      if (Array.isArray(s.anyOf) && s.anyOf.every((v: TSchema) => v[Kind] === 'Literal')) {
        return `must be one of: ${s.anyOf.map((v: { const: unknown }) => String(v.const)).join(', ')}`;
      }
      return s.errorMessage ?? 'has an invalid value';
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.Number:
      return 'must be a number';
    case ValueErrorType.Integer:
      return 'must be an integer';
    case ValueErrorType.Boolean:
      return 'must be a boolean';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.Array:
      return 'must be an array';
    default:
      return s.errorMessage ?? error.message;
  }
}
