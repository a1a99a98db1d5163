import { TypeCompiler } from '@sinclair/typebox/compiler';
import { extractJobRequirements, skillsMentioned } from '../../../shared/ai/jd-extractor';
import { JdExtraction } from '../../../shared/ai/schema';
import { jobDescriptions, notJobDescriptions, score, type CorpusSet } from '../../helpers/jd-corpus';

const parse = extractJobRequirements;
const checkExtraction = TypeCompiler.Compile(JdExtraction);

/** A short but real ad around one sentence under test. */
function ad(line: string, extra = ''): string {
  return [
    'Backend Developer',
    '',
    'We are looking for a developer to join our team and build the services behind our booking product.',
    '',
    'Requirements:',
    `- ${line}`,
    '- Experience with PostgreSQL and Docker',
    extra,
  ].join('\n');
}

describe('offline job-description parser on the fixture corpus', () => {
  // Thresholds sit just under what the parser measures, so any regression fails; docs/ai-operations.md reports the numbers.
  const thresholds: Record<CorpusSet, { fields: Record<string, number>; precision: number; recall: number }> = {
    development: {
      fields: { min_experience: 0.95, max_experience: 0.95, seniority_level: 0.95, work_type: 0.95, employment_type: 0.9, location: 0.9 },
      precision: 0.95,
      recall: 0.95,
    },
    holdout: {
      fields: { min_experience: 0.9, max_experience: 0.9, seniority_level: 0.9, work_type: 0.8, employment_type: 0.8, location: 0.5 },
      precision: 0.9,
      recall: 0.6,
    },
  };

  describe.each(['development', 'holdout'] as const)('%s set', (set) => {
    const result = score(parse, set);
    const limits = thresholds[set];

    it('recognises every job description', () => {
      expect(result.recognised).toBe(result.total);
    });

    it.each(Object.keys(limits.fields))('gets %s right often enough', (field) => {
      expect(result.fields[field as keyof typeof result.fields]).toBeGreaterThanOrEqual(limits.fields[field]);
    });

    it.each(['skills_required', 'skills_good_to_have'] as const)('finds %s with enough precision and recall', (field) => {
      expect(result.skills[field].precision).toBeGreaterThanOrEqual(limits.precision);
      expect(result.skills[field].recall).toBeGreaterThanOrEqual(limits.recall);
    });

    it('rejects every text that is not a job description', () => {
      const accepted = notJobDescriptions(set)
        .filter((t) => parse(t.text).is_job_description)
        .map((t) => t.file);
      expect(accepted).toEqual([]);
    });

    it('answers in the schema the API returns', () => {
      for (const { text } of [...jobDescriptions(set), ...notJobDescriptions(set)]) expect(checkExtraction.Check(parse(text))).toBe(true);
    });
  });

  it('holds at least 30 job descriptions and 10 other texts', () => {
    expect(jobDescriptions('development').length + jobDescriptions('holdout').length).toBeGreaterThanOrEqual(30);
    expect(notJobDescriptions('development').length + notJobDescriptions('holdout').length).toBeGreaterThanOrEqual(10);
  });
});

describe('offline job-description parser, rule by rule', () => {
  it.each([
    ['5+ years of experience with Go', 5, null],
    ['At least three years of professional experience', 3, null],
    ['Minimum of 2 years experience in a similar role', 2, null],
    ['3-5 years of backend experience', 3, 5],
    ['Five to seven years in software development', 5, 7],
    ['2 – 4 yrs of relevant experience', 2, 4],
    ["At least 2 years' experience", 2, null],
    ['No experience needed, we train you', 0, null],
  ])('reads "%s" as %p to %p years', (line, min, max) => {
    const r = parse(ad(line)).requirements!;
    expect([r.min_experience, r.max_experience]).toEqual([min, max]);
  });

  it('leaves experience null when the text states none, and ignores years that are not experience', () => {
    expect(parse(ad('A love of clean code')).requirements!.min_experience).toBeNull();
    expect(parse(ad('Must be 18 years old or over')).requirements!.min_experience).toBeNull();
    expect(parse(ad('Must be 21 years or older')).requirements!.min_experience).toBeNull();
  });

  it.each([
    ['Senior Backend Developer', 'Senior'],
    ['Sr. Data Engineer', 'Senior'],
    ['Junior Accountant', 'Entry'],
    ['Graduate Software Engineer', 'Entry'],
    ['Marketing Intern', 'Entry'],
    ['Mid-level QA Engineer', 'Mid'],
    ['Lead Designer', 'Lead'],
    ['Principal Engineer', 'Principal'],
    ['Staff Software Engineer', 'Staff'],
    ['Staff Accountant', null],
    ['Backend Developer', null],
  ])('reads the title "%s" as seniority %p', (title, level) => {
    const text = ad('3+ years of experience').replace('Backend Developer', title);
    expect(parse(text).requirements!.seniority_level).toBe(level);
  });

  it.each([
    ['This role is fully remote.', 'Remote'],
    ['Hybrid: two days a week in our office.', 'Hybrid'],
    ['This position is on-site in our warehouse.', 'On Site'],
    ['You can work from home.', 'Remote'],
    ['This is not a remote role.', 'On Site'],
    ['Experience with remote patient monitoring devices.', null],
  ])('reads "%s" as work type %p', (sentence, type) => {
    expect(parse(ad('3+ years of experience', sentence)).requirements!.work_type).toBe(type);
  });

  it.each([
    ['Job type: Part-time', 'Part Time'],
    ['This is a full-time, permanent role.', 'Full Time'],
    ['Initial 6-month contract.', 'Contract'],
    ['Fixed-term for one year.', 'Contract'],
    ['We are looking for freelancers.', 'Freelance'],
  ])('reads "%s" as employment type %p', (sentence, type) => {
    expect(parse(ad('3+ years of experience', sentence)).requirements!.employment_type).toBe(type);
  });

  it.each([
    ['Location: Lyon, France', 'Lyon, France'],
    ['Location: London, UK. Hybrid, two days in the office.', 'London, UK'],
    ['Remote (Canada) | Full-time', 'Canada'],
    ['St. Mary’s Hospital, Galway, Ireland', 'Galway, Ireland'],
  ])('reads the header line "%s" as location %p', (header, place) => {
    const text = ['Backend Developer', header, '', ad('3+ years of experience')].join('\n');
    expect(parse(text).requirements!.location).toBe(place);
  });

  it('never invents a location, seniority or work type', () => {
    const r = parse(ad('3+ years of experience')).requirements!;
    expect(r).toMatchObject({ location: null, seniority_level: null, work_type: null, employment_type: null });
  });

  it('splits skills into required and nice to have by section and by clause', () => {
    const text = [
      'Data Engineer',
      '',
      'We are hiring a data engineer to build pipelines for our analytics team.',
      '',
      'Requirements',
      '- Python and SQL',
      '- Experience with Airflow; Kafka is a plus',
      '- Excellent communication skills',
      '',
      'Nice to have',
      '- Snowflake',
      '- Python scripting for automation',
    ].join('\n');
    const r = parse(text).requirements!;
    expect(r.skills_required).toEqual(['Python', 'SQL', 'Airflow', 'Communication']);
    // Python is required already; a skill is never in both lists.
    expect(r.skills_good_to_have).toEqual(['Kafka', 'Snowflake']);
  });

  it('takes the longest name and keeps look-alike words out', () => {
    expect(skillsMentioned('AWS SageMaker, Tailwind CSS, GitHub Actions, Node.js and C++')).toEqual([
      'SageMaker',
      'Tailwind CSS',
      'GitHub Actions',
      'Node.js',
      'C++',
    ]);
    expect(skillsMentioned('You will go the extra mile, excel at the rest of the workday, and R&D matters')).toEqual([]);
    expect(skillsMentioned('We write Go, Swift and R; our Excel models are big')).toEqual(['Go', 'Swift', 'R', 'Excel']);
  });

  it('counts soft skills and languages only where they are asked for', () => {
    const text = [
      'Support Agent',
      '',
      'You will communicate with customers in English every day, solve their problems by chat and email, and we will train you on our products.',
      '',
      'Requirements:',
      '- 1+ year of experience',
      '- Zendesk',
    ].join('\n');
    expect(parse(text).requirements!.skills_required).toEqual(['Zendesk']);
  });

  it('rejects short and empty text', () => {
    expect(parse('Senior Go developer, remote, 5 years').is_job_description).toBe(false);
    expect(parse('   ').is_job_description).toBe(false);
  });
});
