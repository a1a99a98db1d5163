import { coerceExtracted } from '../../../shared/calls/extracted-values';
import type { ExtractVariable } from '../../../shared/calls/schema';

const v = (label: string, type: ExtractVariable['type'], extra: Partial<ExtractVariable> = {}): ExtractVariable => ({
  label,
  type,
  description: label,
  ...extra,
});
const vars = [
  v('notes', 'string'),
  v('notice', 'single_select', { choices: ['none', '1 month'] }),
  v('available', 'boolean'),
  v('years', 'integer'),
  v('salary', 'number'),
  v('languages', 'array'),
  v('start', 'date'),
  v('callback', 'datetime'),
];

describe('extracted values checked against extract_variables', () => {
  it('keeps values of the declared type as they are', () => {
    const data = {
      notes: 'Prefers mornings',
      notice: '1 month',
      available: false,
      years: 7,
      salary: 82.5,
      languages: ['English', 'French'],
      start: '2027-02-28',
      callback: '2026-12-01T09:30:00.000Z',
    };
    expect(coerceExtracted(vars, data)).toEqual({ values: data, notes: [] });
  });

  it('converts lossless spellings to the declared type', () => {
    const { values, notes } = coerceExtracted(vars, {
      notes: 42,
      notice: '1 MONTH ',
      available: 'Yes',
      years: '12',
      salary: '1.5e2',
      languages: ['English', 3, null],
      callback: '2026-12-01T10:30:00+01:00',
    });
    expect(values).toEqual({
      notes: '42',
      notice: '1 month',
      available: true,
      years: 12,
      salary: 150,
      languages: ['English', '3'],
      callback: '2026-12-01T09:30:00.000Z',
    });
    expect(notes).toEqual([]);
  });

  it.each([
    ['notes', { a: 1 }, 'notes: expected text, got an object; dropped'],
    ['notes', '   ', 'notes: empty text; dropped'],
    ['notice', '2 months', 'notice: not one of the choices; dropped'],
    ['notice', 3, 'notice: expected one of the choices, got a number; dropped'],
    ['available', 'maybe', 'available: expected true or false, got other text; dropped'],
    ['years', 7.5, 'years: expected a whole number, got a number; dropped'],
    ['years', 'seven', 'years: expected a whole number, got other text; dropped'],
    ['salary', 'a lot', 'salary: expected a number, got other text; dropped'],
    ['salary', Number.NaN, 'salary: expected a number, got a number; dropped'],
    ['languages', 'English', 'languages: expected a list, got other text; dropped'],
    ['languages', [{ x: 1 }], 'languages: expected a list of text items; dropped'],
    ['start', '2027-02-30', 'start: not a calendar date; dropped'],
    ['start', '28/02/2027', 'start: expected a date (YYYY-MM-DD), got other text; dropped'],
    ['callback', '2026-12-01 09:30', 'callback: expected an ISO 8601 date-time with a time zone, got other text; dropped'],
    ['callback', '2026-13-45T99:99:00Z', 'callback: not a real date-time; dropped'],
  ])('drops %s = %p and notes why, without repeating the value', (key, value, note) => {
    expect(coerceExtracted(vars, { [key]: value })).toEqual({ values: {}, notes: [note] });
  });

  it('drops undeclared keys, skips nulls, and refuses data that is not an object', () => {
    expect(coerceExtracted(vars, { ssn: '123', notes: null })).toEqual({ values: {}, notes: ['ssn: not a requested variable; dropped'] });
    expect(coerceExtracted(vars, undefined)).toEqual({ values: {}, notes: [] });
    expect(coerceExtracted(vars, ['x'])).toEqual({ values: {}, notes: ['extracted data is not an object; nothing was kept'] });
    expect(coerceExtracted(vars, 'text')).toEqual({ values: {}, notes: ['extracted data is not an object; nothing was kept'] });
  });
});
