import { titleCase, splitName } from '../../shared/names';
import { normaliseEmail } from '../../infra/people';
import { renderTemplate, templateContext, unknownVariables } from '../../shared/template-variables';

describe('titleCase', () => {
  it.each([
    ['ada lovelace', 'Ada Lovelace'],
    ['ADA LOVELACE', 'Ada Lovelace'],
    ['  jean-luc   picard ', 'Jean-Luc Picard'],
    ["shaquille o'neal", "Shaquille O'Neal"],
    ['j. r. r. tolkien', 'J. R. R. Tolkien'],
    ['émile zola', 'Émile Zola'],
    ['x', 'X'],
  ])('%s → %s', (input, expected) => expect(titleCase(input)).toBe(expected));
});

describe('splitName and normaliseEmail', () => {
  it('splits first word from the rest', () => {
    expect(splitName('Ada King Lovelace')).toEqual({ first: 'Ada', last: 'King Lovelace' });
    expect(splitName('Cher')).toEqual({ first: 'Cher', last: '' });
  });
  it('lowercases and trims emails', () => expect(normaliseEmail(' Ada@Example.COM ')).toBe('ada@example.com'));
});

describe('templates', () => {
  const ctx = templateContext(
    { name: 'Ada King Lovelace', email: 'ada@example.com', phone: '+447700900123' },
    { first_name: 'Grace', last_name: 'Hopper', company: 'Navy' },
    'Analytical Engines Ltd',
  );

  it('resolves every built-in variable, with or without inner spaces', () => {
    const text =
      '{{candidate_first_name}}|{{ candidate_last_name }}|{{candidate_full_name}}|{{candidate_email}}|{{candidate_phone}}|' +
      '{{sender_first_name}}|{{sender_last_name}}|{{sender_full_name}}|{{sender_company}}';
    expect(renderTemplate(text, ctx)).toBe(
      'Ada|King Lovelace|Ada King Lovelace|ada@example.com|+447700900123|Grace|Hopper|Grace Hopper|Analytical Engines Ltd',
    );
  });

  it('passes literal text and unknown references through unchanged', () => {
    expect(renderTemplate('Hi {{nickname}}, see {x} and {{ }}', ctx)).toBe('Hi {{nickname}}, see {x} and {{ }}');
  });

  it('falls back to the sender profile company when the job has none', () => {
    const c = templateContext({ name: 'A B', email: 'a@b.co', phone: '+15550001111' }, { first_name: 'G', last_name: '', company: 'Navy' });
    expect(c.sender_company).toBe('Navy');
    expect(c.sender_full_name).toBe('G');
  });

  it('lists unknown variables once each, in order', () => {
    expect(unknownVariables('{{a}} {{candidate_email}} {{b}} {{ a }}')).toEqual(['a', 'b']);
    expect(unknownVariables('no references')).toEqual([]);
  });
});
