import { writeCallScript, type ScriptBrief } from '../../../shared/calls/call-script';
import { unknownVariables } from '../../../shared/template-variables';
import { CALL_GOALS } from '../../../shared/ai/schema';
import { EXTRACT_TYPES, type ExtractVariable } from '../../../shared/calls/schema';

const brief = (extra: Partial<ScriptBrief> = {}): ScriptBrief => ({
  title: 'Warehouse Team Lead',
  description: 'Run the night shift of our fulfilment centre. Keep the team safe and the trucks on time.',
  skills_required: ['Forklift', 'WMS'],
  skills_good_to_have: ['SAP'],
  goal: 'screening',
  extract_variables: [],
  ...extra,
});

describe('offline call-script writer', () => {
  it.each(CALL_GOALS)('writes a %s script that uses only built-in variables', (goal) => {
    const { first_message, instructions } = writeCallScript(brief({ goal }));
    expect(unknownVariables(first_message + instructions)).toEqual([]);
    expect(first_message).toMatch(
      /^Hi \{\{candidate_first_name\}\}, this is an AI assistant calling on behalf of \{\{sender_full_name\}\} at \{\{sender_company\}\} about the Warehouse Team Lead role/,
    );
    expect(instructions).toContain('Rules:');
    expect(instructions).toContain('Summary: Run the night shift of our fulfilment centre.');
  });

  it('asks screening questions about experience, each main skill, arrangement and employment type', () => {
    const { instructions } = writeCallScript(
      brief({
        min_experience: 2,
        max_experience: 5,
        work_type: 'On Site',
        location: 'Reno, NV',
        employment_type: 'Part Time',
        skills_required: ['A1', 'B2', 'C3', 'D4', 'E5', 'F6'],
      }),
    );
    expect(instructions).toContain('The role asks for 2 to 5 years of relevant experience');
    for (const skill of ['A1', 'B2', 'C3', 'D4', 'E5']) expect(instructions).toContain(`hands-on experience with ${skill}:`);
    expect(instructions).not.toContain('hands-on experience with F6');
    expect(instructions).toContain('the role is on site (Reno, NV)');
    expect(instructions).toContain('looking for part time work');
  });

  it('leaves out what the brief does not state', () => {
    const { instructions } = writeCallScript(brief({ skills_required: [], skills_good_to_have: [] }));
    expect(instructions).not.toMatch(/Experience:|Location:|Work type:|Required skills|Nice to have:|years of relevant experience/);
  });

  it('tells the agent how to record each type of extracted value', () => {
    const variables: ExtractVariable[] = EXTRACT_TYPES.map((type) => ({
      label: `v_${type}`,
      type,
      description: `The ${type}.`,
      ...(type === 'single_select' ? { choices: ['yes', 'no', 'maybe'] } : {}),
      ...(type === 'date' ? { format_example: '2026-05-01' } : {}),
    }));
    const { instructions } = writeCallScript(brief({ extract_variables: variables }));
    expect(instructions).toContain('- v_single_select: The single_select. Record it as exactly one of: yes, no, maybe.');
    expect(instructions).toContain('- v_boolean: The boolean. Record it as yes or no.');
    expect(instructions).toContain('- v_integer: The integer. Record it as a whole number.');
    expect(instructions).toContain('- v_date: The date. Record it as a calendar date (YYYY-MM-DD). For example: 2026-05-01.');
    expect(instructions.match(/^- v_/gm)).toHaveLength(EXTRACT_TYPES.length);
  });

  it('uses the given company and strips braces from caller text', () => {
    const { first_message, instructions } = writeCallScript(
      brief({ company: 'Acme {{x}}', title: 'Lead {{role}}', description: 'Pays {{salary}}.' }),
    );
    expect(first_message).toContain('at Acme x about the Lead role role');
    expect(unknownVariables(first_message + instructions)).toEqual([]);
  });

  it('stays within call/initiate’s limits for the largest brief the API accepts', () => {
    const long = (n: number, c = 'x') => c.repeat(n);
    const { first_message, instructions } = writeCallScript(
      brief({
        title: long(200, 'T'),
        company: long(200, 'C'),
        description: `${long(19_990, 'd ')}`,
        location: long(200, 'L'),
        skills_required: Array.from({ length: 100 }, (_, i) => `${long(95, 's')}${i}`),
        skills_good_to_have: Array.from({ length: 100 }, (_, i) => `${long(95, 'g')}${i}`),
        extract_variables: Array.from({ length: 50 }, (_, i) => ({
          label: `${long(97, 'l')}${i}`,
          type: 'single_select' as const,
          description: long(2000, 'e'),
          format_example: long(500, 'f'),
          choices: Array.from({ length: 100 }, () => long(50, 'c')),
        })),
      }),
    );
    expect(first_message.length).toBeLessThanOrEqual(2000);
    expect(instructions.length).toBeLessThanOrEqual(20_000);
    expect(instructions).toContain('and 85 more');
  });
});
