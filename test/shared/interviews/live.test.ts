import {
  afterCandidateTurn,
  answerAsAnAi,
  answerOf,
  askQuestion,
  disclosure,
  heardText,
  interviewerInstructions,
  spokenRequest,
} from '../../../shared/interviews/live';
import { asksIfHuman } from '../../../shared/contact/disclosure';
import { callBackGate, callScript } from '../../../operations/call-scripts';

describe('live interviews: the rules of a conversation', () => {
  it('keeps of a reply cut into the share of its words the candidate heard, and all of one heard to its end', () => {
    const text = 'one two three four five six seven eight nine ten';
    expect(heardText(text, 300, 1_000)).toBe('one two three…');
    expect(heardText(text, 0, 1_000)).toBe('…');
    expect(heardText(text, 1_000, 1_000)).toBe(text);
    expect(heardText(text, 5_000, 1_000)).toBe(text);
  });

  it('hears a question whether it is a person, and answers it as an AI, in the conversation and on the phone', () => {
    for (const asked of ['Are you a real person?', 'wait, are you human', 'Is this a bot?', 'Am I talking to a human?', 'r u a robot'])
      expect(asksIfHuman(asked)).toBe(true);
    for (const answer of ['I am a real person who loves data.', 'The human side of the team', 'We built a bot for support tickets.'])
      expect(asksIfHuman(answer)).toBe(false);
    expect(spokenRequest('Are you a real person?')).toBe('human');
    expect(answerOf([{ who: 'candidate', text: 'Are you a real person?' }])).toBe('');
    const q = { question: 'What would you build first?', type: 'text' as const, time_limit_seconds: 120 };
    expect(answerAsAnAi(q, 0, 2)).toBe(
      'Say exactly: "I am an AI interviewer, not a person. Here is the question again. What would you build first?"',
    );
    expect(interviewerInstructions('Acme', 'Engineer')).toContain('"I am an AI interviewer, not a person."');
    const call = {
      _id: 'call_1',
      candidate: { name: 'Ada' },
      instructions: 'Ask Ada about her availability.',
      assistant_settings: {},
      extract_variables: [],
      first_message: 'Hi Ada!',
    } as unknown as Parameters<typeof callScript>[0];
    const sources = { workspace: null, project: null };
    expect(callScript(call, sources, 1, 'outbound').instructions).toMatch(
      /^Ask Ada about her availability\.\n\n.*"I am an AI assistant, not a person\."/s,
    );
    expect(callBackGate(call, sources, 1).instructions).toContain('"I am an AI assistant, not a person."');
  });

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
