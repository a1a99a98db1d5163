import { bracketPath, dottedPath } from '../../shared/errors';

describe('error paths', () => {
  it.each([
    [['candidates', 0, 'name'], 'candidates.0.name', 'candidates[0].name'],
    [['call_settings', 'working_hours', 'monday', 0, 'start_minute'], 'call_settings.working_hours.monday.0.start_minute', 'call_settings.working_hours.monday[0].start_minute'],
    [['max_experience'], 'max_experience', 'max_experience'],
    [[], '', ''],
  ])('%j renders as %s and %s', (path, dotted, bracket) => {
    expect(dottedPath(path)).toBe(dotted);
    expect(bracketPath(path)).toBe(bracket);
  });
});
