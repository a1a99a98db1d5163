import { afterCandidateTurn, answerOf, askQuestion, disclosure, spokenRequest } from '../../../shared/interviews/live';

describe('live interviews: the rules of a conversation', () => {
  it('hears a short request to move on or to repeat, and takes a longer turn as an answer', () => {
    expect(spokenRequest("I'm done.")).toBe('done');
    expect(spokenRequest("That's all, thanks")).toBe('done');
    expect(spokenRequest('Next question please')).toBe('done');
    expect(spokenRequest('Could you repeat the question?')).toBe('repeat');
    expect(spokenRequest("Sorry, I didn't catch that")).toBe('repeat');
    expect(spokenRequest('I built a pipeline with Kafka.')).toBeNull();
    expect(spokenRequest("I'm done with the migration now, we moved every service to Kubernetes last spring")).toBeNull();
  });

  it("assembles the candidate's answer from their turns, without the interviewer's or their requests", () => {
    const t = (who: 'interviewer' | 'candidate', text: string) => ({ who, text });
    expect(
      answerOf([
        t('interviewer', 'Question 1 of 2. Tell us about a pipeline.'),
        t('candidate', 'Could you repeat the question?'),
        t('candidate', ' I built one with Kafka. '),
        t('interviewer', 'What did you test?'),
        t('candidate', 'Its schemas.'),
        t('candidate', "That's all."),
      ]),
    ).toBe('I built one with Kafka. Its schemas.');
    expect(answerOf([t('interviewer', 'Question 1 of 1.')])).toBe('');
  });

  it('follows up while the question has follow-ups left', () => {
    expect(afterCandidateTurn(0, 1)).toBe('follow_up');
    expect(afterCandidateTurn(1, 1)).toBe('next');
    expect(afterCandidateTurn(0, 0)).toBe('next');
  });

  it('opens with the disclosure, and asks a question again in other words', () => {
    const q = { question: 'Why Go?', type: 'text' as const, time_limit_seconds: 60 };
    expect(askQuestion(q, 0, 3, { opening: disclosure('Acme') })).toBe(
      `Say exactly: "Hello, I am an AI interviewer for Acme. This conversation is recorded, and your answers are assessed afterwards. Let's begin. Question 1 of 3. Why Go?"`,
    );
    expect(askQuestion(q, 1, 3, { again: true })).toBe('Say exactly: "Here is the question again. Why Go?"');
  });
});
