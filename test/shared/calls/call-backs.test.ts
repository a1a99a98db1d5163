import { callBackResult, namesMatch, MAX_NAME_WORDS } from '../../../shared/calls/call-backs';

/** A call-back's rules as pure functions (docs/calls.md#call-backs): whose name passes the gate, and what a report counts for. */
describe('call-back rules', () => {
  it("confirms the candidate's own first and last words, as a transcriber may write them, and nothing less", () => {
    expect(namesMatch('Grace Hopper', 'Grace Hopper')).toBe(true);
    expect(namesMatch('grace  HOPPER.', 'Grace Brewster Hopper')).toBe(true);
    expect(namesMatch('Grace Hoper', 'Grace Hopper')).toBe(true);
    expect(namesMatch('Grace', 'Grace Hopper')).toBe(false);
    expect(namesMatch('Hopper', 'Grace Hopper')).toBe(false);
    expect(namesMatch('', 'Grace Hopper')).toBe(false);
  });

  it('never takes a list of names for one name: more than five words is not a name', () => {
    expect(MAX_NAME_WORDS).toBe(5);
    expect(namesMatch('Grace Ada Mary Lou Hopper', 'Grace Hopper')).toBe(true);
    expect(namesMatch('Grace Ada Mary Lou Anne Hopper', 'Grace Hopper')).toBe(false);
    const crowd =
      'James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph Jessica Thomas Sarah Grace Hopper';
    expect(namesMatch(crowd, 'Grace Hopper')).toBe(false);
    // A candidate whose own name is longer than five words is still matched by it.
    expect(namesMatch('Ana Maria de la Cruz Santos', 'Ana Maria de la Cruz Santos')).toBe(true);
  });

  it('counts a report for nothing without the identity confirmed, whatever it carries', () => {
    const declared = [{ label: 'available' }, { label: 'years' }];
    expect(callBackResult('completed', { available: false }, declared, true, false)).toBe('call_back_incomplete');
    expect(callBackResult('completed', {}, [], true, false)).toBe('call_back_incomplete');
  });

  it('completes a confirmed call-back with a filled variable (false and 0 are answers; blanks and empty lists are not) or a "screened" evaluation', () => {
    const declared = [{ label: 'available' }, { label: 'skills' }];
    expect(callBackResult('completed', { available: false }, declared, undefined, true)).toBe('completed');
    expect(callBackResult('completed', { skills: [] }, declared, undefined, true)).toBe('call_back_incomplete');
    expect(callBackResult('completed', { available: '  ' }, declared, undefined, true)).toBe('call_back_incomplete');
    expect(callBackResult('completed', {}, [], true, true)).toBe('completed');
    expect(callBackResult('missed', { available: true }, declared, true, true)).toBe('call_back_incomplete');
  });
});
