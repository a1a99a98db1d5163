import { assessOffline, type AnswerToAssess } from '../../../shared/interviews/assessment';
import { expiryAfter, hasExpired, linkExpired, reminderAt } from '../../../shared/interviews/deadlines';
import { jobDetails } from '../../helpers/job';

const job = jobDetails({ skills_required: ['Kubernetes', 'C++', 'Go'], skills_good_to_have: ['AWS', 'Helm', 'Terraform'] });
const answer = (index: number, text: string | null): AnswerToAssess => ({
  index,
  question: `Question ${index}?`,
  type: 'text',
  text,
  missing: text === null ? 'The answer arrived after the time limit' : null,
});

describe('assessOffline', () => {
  it("scores answers by the job's skills they name (required ones double) and their length, quoting the sentence", () => {
    const long = Array.from({ length: 70 }, () => 'word').join(' ');
    const result = assessOffline(job, [
      answer(0, 'I run Kubernetes clusters on AWS. Upgrades use Helm charts.'),
      answer(1, `Nothing relevant here. ${long}`),
      answer(2, null),
      answer(3, 'Mostly C++ and Go, plus Kubernetes operators.'),
    ]);
    expect(result.questions).toEqual([
      {
        index: 0,
        score: 3,
        skills: ['Kubernetes', 'AWS', 'Helm'],
        evidence: ['I run Kubernetes clusters on AWS.', 'Upgrades use Helm charts.'],
      },
      { index: 1, score: 2, skills: [], evidence: [] },
      { index: 3, score: 4, skills: ['Kubernetes', 'C++', 'Go'], evidence: expect.any(Array) },
    ]);
    expect(result.overall).toEqual({
      score: 3,
      summary: "Offline assessment of 3 of 4 answers by the job's skills they name. Skills named: Kubernetes, AWS, Helm, C++, Go.",
      recommendation: 'consider',
    });
  });

  it('matches a skill as a whole word only, in any case', () => {
    const { questions } = assessOffline(job, [answer(0, 'Going to goa; then golang. But go is fine, and KUBERNETES too.')]);
    expect(questions[0].skills).toEqual(['Kubernetes', 'Go']);
  });

  it('says so when no answer could be assessed, and recommends against', () => {
    expect(assessOffline(job, [answer(0, null)])).toEqual({
      questions: [],
      overall: { score: 1, summary: 'No answer could be assessed.', recommendation: 'reject' },
    });
  });
});

describe('interview deadlines', () => {
  const invited = new Date('2026-11-24T10:00:00Z');
  it('expires a link after its days, reminds at half of them, and is expired from the deadline on', () => {
    const expires = expiryAfter(invited, 3);
    expect(expires.toISOString()).toBe('2026-11-27T10:00:00.000Z');
    expect(expiryAfter(invited).toISOString()).toBe('2026-12-08T10:00:00.000Z');
    expect(reminderAt(invited, expires).toISOString()).toBe('2026-11-25T22:00:00.000Z');
    expect(hasExpired(expires, new Date(expires.getTime() - 1))).toBe(false);
    expect(hasExpired(expires, expires)).toBe(true);
    expect(['invited', 'started', 'completed', 'failed', 'queued', 'expired'].map((s) => linkExpired(s, expires, expires))).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
    ]);
    expect(linkExpired('started', expires, invited)).toBe(false);
  });
});
