import { findHyperlink, isPersonName } from '../../../shared/jobs/hyperlinks';
import { generateQuestions, DEFAULT_QUESTION_COUNT } from '../../../shared/interviews/question-generator';
import { composeInvitation, escapeHtml } from '../../../shared/interviews/invitation-email';
import { toStrictJsonSchema } from '../../../providers/llm/strict-json-schema';
import { Type } from '@sinclair/typebox';
import { SENIORITY_LEVELS, WORK_TYPES } from '../../../shared/jobs/schema';
import { jobDetails } from '../../helpers/job';

describe('findHyperlink', () => {
  it.each([
    ['https://acme.io/jobs', 'URL'],
    ['apply at HTTP://ACME.IO', 'URL'],
    ['ftp://files.acme.io/x', 'URL'],
    ['see www.acme.com', 'www. address'],
    ['(www2.acme.co.uk)', 'www. address'],
    ['WWW.ACME.COM', 'www. address'],
    ['read [the handbook](handbook.pdf)', 'markdown link'],
    ['[x]()', 'markdown link'],
    ['<a href="https://acme.io">x</a>', 'URL'],
    ['<A HREF="/jobs">x</A>', 'HTML link'],
    ['<a>bare</a>', 'HTML link'],
  ])('finds a link in %j', (text, kind) => {
    expect(findHyperlink(text)).toBe(kind);
  });

  it.each([
    'Node.js and Vue.js',
    'acme.com is our domain',
    'email jobs@acme.com',
    'arrays [like this] and (parentheses)',
    'the www is big',
    'awww.nice',
    'a <abbr>tag</abbr> and <b>bold</b>',
    'ratio 3:1 and http: without slashes',
    '',
  ])('finds none in %j', (text) => {
    expect(findHyperlink(text)).toBeNull();
  });
});

describe('isPersonName', () => {
  it.each(['Ada', 'Al.', 'J. R. R. Tolkien', 'José Núñez', 'Zoë Saldaña', '李小龙', 'Анна Каренина', 'ﺳﺎﺭﺓ ﻋﻠﻲ'])('accepts %j', (name) => {
    expect(isPersonName(name)).toBe(true);
  });
  it.each(['Al', '  A ', '...', '   ', 'R2D2', "O'Neal", 'Jean-Luc', 'Ada_L', 'Ada\tL', 'Ada 😀'])('rejects %j', (name) => {
    expect(isPersonName(name)).toBe(false);
  });
});

const job = jobDetails;

describe('generateQuestions (offline)', () => {
  it('asks about the role, each main skill, the experience band and the work type', () => {
    const qs = generateQuestions(job());
    expect(qs).toHaveLength(DEFAULT_QUESTION_COUNT);
    const text = qs.map((q) => q.question).join('\n');
    for (const fragment of ['Backend Engineer role', 'TypeScript', 'PostgreSQL', 'AWS', '2 to 5 years', 'remote', 'first 30 days'])
      expect(text).toContain(fragment);
    // Without a work-type question, the first nice-to-have skill gets one.
    expect(
      generateQuestions(job({ work_type: 'On Site' }))
        .map((q) => q.question)
        .join('\n'),
    ).toContain('familiar are you with Kafka');
    expect(qs.filter((q) => q.type === 'text')).toHaveLength(1);
    for (const q of qs) expect(q.time_limit_seconds).toBe(q.type === 'text' ? 300 : 120);
  });

  it('is deterministic and never repeats a question', () => {
    expect(generateQuestions(job(), 20)).toEqual(generateQuestions(job(), 20));
    const qs = generateQuestions(job(), 20);
    expect(new Set(qs.map((q) => q.question)).size).toBe(qs.length);
  });

  it.each(SENIORITY_LEVELS.flatMap((s) => WORK_TYPES.map((w) => [s, w] as const)))(
    'yields 1..20 questions for %s / %s',
    (seniority_level, work_type) => {
      const j = job({ seniority_level, work_type });
      for (const n of [1, 8, 20]) expect(generateQuestions(j, n)).toHaveLength(n);
    },
  );

  it('words the skill questions for the seniority', () => {
    const entry = generateQuestions(job({ seniority_level: 'Entry' }))
      .map((q) => q.question)
      .join(' ');
    const staff = generateQuestions(job({ seniority_level: 'Staff' }))
      .map((q) => q.question)
      .join(' ');
    expect(entry).toContain('What did you learn');
    expect(staff).toContain('most complex problem');
    expect(staff).toContain('affected several people or teams');
  });

  it('ignores skill duplicates across lists and says "up to" when there is no minimum', () => {
    const qs = generateQuestions(job({ min_experience: 0, max_experience: 1, skills_good_to_have: ['typescript', 'Redis', 'Kafka'] }), 20);
    const text = qs.map((q) => q.question).join('\n');
    expect(text).toContain('up to 1 year of experience');
    expect(text).not.toContain('familiar are you with typescript');
    expect(text).toContain('familiar are you with Redis');
  });
});

describe('composeInvitation', () => {
  const facts = {
    candidateName: 'Grace Hopper',
    jobTitle: 'R&D <Lead>',
    companyName: 'Smith & "Sons"',
    interviewUrl: 'https://hiring.test/interview/abc_-1',
    unsubscribeUrl: 'https://hiring.test/u/int_1.sig',
    questionsCount: 1,
  };

  it('names the job, the company and the link in both parts', () => {
    const mail = composeInvitation(facts);
    expect(mail.subject).toBe('Your interview for R&D <Lead> at Smith & "Sons"');
    expect(mail.text).toContain('Hi Grace,');
    expect(mail.text).toContain('the R&D <Lead> role at Smith & "Sons"');
    expect(mail.text).toContain('Start your interview: https://hiring.test/interview/abc_-1');
    expect(mail.text).toContain('It has 1 question;');
    expect(mail.html).toContain('the R&amp;D &lt;Lead&gt; role at Smith &amp; &quot;Sons&quot;');
    expect(mail.html).toContain('href="https://hiring.test/interview/abc_-1"');
    expect(mail.html).not.toContain('<Lead>');
  });

  it('ends every kind with its unsubscribe link', () => {
    for (const kind of ['invitation', 'reminder', 'resend'] as const) {
      const mail = composeInvitation({ ...facts, kind });
      expect(mail.text).toContain('about applications: https://hiring.test/u/int_1.sig');
      expect(mail.html).toContain('<a href="https://hiring.test/u/int_1.sig"');
    }
  });

  it('words a reminder and a resend as what they are, with the day the link closes', () => {
    const expiresAt = new Date('2026-12-08T09:30:00Z');
    const reminder = composeInvitation({ ...facts, kind: 'reminder', expiresAt });
    expect(reminder.subject).toBe('Reminder: your interview for R&D <Lead> at Smith & "Sons"');
    expect(reminder.text).toContain('is still waiting for you');
    expect(reminder.text).toContain('The link is open until 8 December 2026.');
    expect(reminder.html).toContain('The link is open until 8 December 2026.');
    const resend = composeInvitation({ ...facts, kind: 'resend', expiresAt });
    expect(resend.subject).toBe('Your interview link for R&D <Lead> at Smith & "Sons"');
    expect(resend.text).toContain('Here again is your link');
    expect(composeInvitation(facts).text).not.toContain('open until');
  });

  it('escapes every HTML special character', () => {
    expect(escapeHtml(`<script>alert('x' & "y")</script>`)).toBe('&lt;script&gt;alert(&#39;x&#39; &amp; &quot;y&quot;)&lt;/script&gt;');
  });
});

describe('toStrictJsonSchema', () => {
  it('closes objects, requires every property, makes optional ones nullable and drops unsupported keywords', () => {
    const schema = Type.Object({
      name: Type.String({ minLength: 1, maxLength: 5, description: 'Full name' }),
      level: Type.Union([Type.Literal('a'), Type.Literal('b')]),
      years: Type.Optional(Type.Number({ minimum: 0 })),
      tags: Type.Array(Type.String({ pattern: '^x' }), { minItems: 3 }),
    });
    expect(toStrictJsonSchema(schema)).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['name', 'level', 'years', 'tags'],
      properties: {
        name: { type: 'string', description: 'Full name' },
        level: { type: 'string', enum: ['a', 'b'] },
        years: { anyOf: [{ type: 'number' }, { type: 'null' }] },
        tags: { type: 'array', items: { type: 'string' } },
      },
    });
  });

  it('keeps nullable unions as anyOf', () => {
    expect(toStrictJsonSchema(Type.Union([Type.String(), Type.Null()]))).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });
});
