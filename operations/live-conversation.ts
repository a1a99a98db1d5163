import type { InterviewDoc } from '../infra/documents/interviews';
import { companyOf } from '../infra/documents/projects';
import type { Logger } from '../infra/logger';
import type { RealtimeVoice } from '../providers/realtime/port';
import {
  afterCandidateTurn,
  spokenRequest,
  askFollowUp,
  askQuestion,
  answerAsAnAi,
  disclosure,
  FOLLOW_UPS,
  interviewerInstructions,
  type LiveControl,
  type LiveEnd,
  type LiveMessage,
} from '../shared/interviews/live';
import { asksIfHuman } from '../shared/contact/disclosure';
import { ConversationState } from '../shared/interviews/live-states';
import { ANSWER_GRACE_SECONDS } from '../shared/interviews/session';
import type { Stores } from '../stores';
import type { InterviewSteps } from './interview-steps';
import { keptRecording } from './live-recording';
import { providerSession } from './live-provider-session';
import { liveCutIns } from '../infra/metrics';
import { conversationLatency } from './live-latency';
import { interviewerReplies } from './live-replies';
import { questionTurns } from './live-turns';

/** Where a conversation sends what the candidate hears and sees: the socket, as web/interviews/live-session.ts holds it. */
export interface LiveLink {
  send(message: LiveMessage): void;
  sendAudio(pcm: Buffer): void;
  /** Ends the socket, after an `ended` message saying why. */
  close(reason: LiveEnd): void;
}

export interface Conversation {
  audio(pcm: Buffer): void;
  control(control: LiveControl): void;
  /** The socket closed (or was taken over): the provider's session goes, and what was kept stays. */
  end(reason: LiveEnd): void;
  /** Settles once the conversation has ended and its recording is closed: the next session continues it. */
  closed: Promise<void>;
}

interface ConversationDeps {
  stores: Pick<Stores, 'interviews' | 'projects' | 'workspaces' | 'recordings'>;
  steps: InterviewSteps;
  realtime: RealtimeVoice;
  logger: Logger;
  now(): Date;
}

/**
 * One live conversation about `interview` (docs/live-interviews.md): the interviewer asks each unanswered
 * question in order, listens, asks up to the interview's follow-ups, and moves on when the candidate has
 * answered them, says they are done, or the question's time runs out. Who has the floor is one state
 * (shared/interviews/live-states.ts), moved by the provider's events and the candidate's controls through one
 * table. Each turn is kept as it completes (stores/interview-answers.ts), and a question's answer is saved,
 * with its turns, as it closes, through the same store as a written answer; the last one finishes the
 * interview as the page's Finish does.
 */
export async function startConversation(deps: ConversationDeps, interview: InterviewDoc, link: LiveLink): Promise<Conversation> {
  const { stores, steps, realtime, logger, now } = deps;
  const questions = interview.questions ?? [];
  const [project, workspace] = await Promise.all([
    stores.projects.get(interview.project_id),
    stores.workspaces.get(interview.workspace_id),
  ]);
  const company = companyOf(project, workspace) ?? 'the company';
  const instructions = interviewerInstructions(company, project?.job?.title ?? project?.name ?? 'this role');
  const allowedFollowUps = interview.follow_ups_per_question ?? FOLLOW_UPS.default;

  const question = questionTurns(stores, interview._id);
  const floor = new ConversationState((state, reply) =>
    link.send({ type: 'state', question_index: question.index, questions: questions.length, state, ...(reply ? { reply } : {}) }),
  );
  const latency = conversationLatency();
  let timer: NodeJS.Timeout | null = null;
  // The recording holds at most the interview's whole time: each question's limit and its grace.
  const recordingSeconds = questions.reduce((sum, q) => sum + q.time_limit_seconds + ANSWER_GRACE_SECONDS, 0);
  const recorder = await keptRecording(stores, interview._id, logger, recordingSeconds);
  // Closed once the recording is, and the last of the conversation's steps has run: the next session reads what they kept.
  let stepsDone: () => void = () => undefined;
  const closed = Promise.all([recorder.closed, new Promise<void>((resolve) => (stepsDone = resolve))]).then(() => undefined);
  // Turns, answers and moves happen one at a time, in the order they came.
  let queue: Promise<void> = Promise.resolve();
  const serially = (step: () => Promise<void>) => {
    queue = queue.then(step).catch((err: unknown) => {
      logger.error({ err, interviewId: interview._id }, 'live interview step failed');
      end('closed');
    });
  };

  const replies = interviewerReplies({
    recorder,
    link,
    question,
    truncate: (ms) => provider.current?.truncate(ms),
    serially,
    ended: () => floor.ended,
    now,
  });

  /** Asks the provider to speak (the page is told, with the reply's number): one response at a time. */
  function respond(instructions: string, greeting = false): void {
    floor.move(greeting ? 'greet' : 'ask');
    replies.asked(floor.reply, question.index);
    // The reply to an answer is asked for here, after this service's own work (keeping it, closing the question).
    latency.asked();
    provider.current?.respond(instructions);
  }

  function ask(again: boolean): void {
    const { index } = question;
    const first = index === 0 && question.list.length === 0;
    // The first words of the conversation say it is an AI and recorded (as our calls' disclosure does).
    respond(askQuestion(questions[index], index, questions.length, { again, opening: first ? disclosure(company) : undefined }), first);
  }

  /** Opens question `at`, or finishes the interview when every question has its answer. */
  async function open(at: number | null): Promise<void> {
    if (timer) clearTimeout(timer);
    if (at === null) {
      floor.move('close');
      // The recording is in place before the interview finishes, so the finished interview's events show it.
      await recorder.close();
      const fresh = (await stores.interviews.get(interview._id)) ?? interview;
      await steps.finish(fresh, now());
      return end('finished');
    }
    floor.heard = false;
    const turns = await question.open(at);
    const index = at;
    // Each of the candidate's turns on an open question was followed up (else the question would have closed).
    floor.followUps = Math.min(turns.filter((t) => t.who === 'candidate').length, allowedFollowUps);
    const openedAt = now();
    const served = await stores.interviews.serveQuestion(interview._id, index, openedAt);
    const left = served.getTime() + (questions[index].time_limit_seconds + ANSWER_GRACE_SECONDS) * 1000 - now().getTime();
    timer = setTimeout(() => serially(close), Math.max(0, left));
    timer.unref();
    // A question already under way (served before this session: a dropped socket, a reload) is asked again, whether
    // or not a turn of it was kept: the answer that was cut starts over.
    ask(turns.length > 0 || served.getTime() < openedAt.getTime());
  }

  /** Closes the open question with the candidate's words so far, and opens the next. */
  async function close(): Promise<void> {
    const { index } = question;
    if (floor.ended || index < 0) return;
    floor.move('close');
    if (timer) clearTimeout(timer);
    // A reply still coming is the question's as far as it came: the answer holds it. Taken before the cancel,
    // which a provider may answer at once (the simulator does) by ending the reply.
    const unfinished = replies.keepUnfinished();
    provider.current?.cancelResponse();
    await unfinished;
    const fresh = (await stores.interviews.get(interview._id)) ?? interview;
    // Erased meanwhile: there is no one left to interview, and nothing of theirs is written again.
    if (fresh.erased_at) return end('closed');
    await stores.interviews.saveAnswer(fresh, question.answer(questions[index].type, now()));
    await open(await stores.interviews.nextQuestion((await stores.interviews.get(interview._id)) ?? fresh));
  }

  const provider = providerSession({
    realtime,
    instructions,
    interviewId: interview._id,
    logger,
    history: () => question.list.map((t) => ({ who: t.who, text: t.text })),
    speaking: () => replies.speaking || floor.speakingSince !== null,
    ended: () => floor.ended,
    serially,
    reopened: () => ask(true),
    gaveUp: () => end('closed'),
    events: {
      speechStarted() {
        floor.speakingSince = now();
        // Over the interviewer, the page judges whether this stops it (CUT_IN), and says so with `played`.
        floor.move('speech_started');
        // The candidate's caption opens now, so it stands after what was said before and before any later reply.
        link.send({ type: 'caption', who: 'candidate', text: '', partial: true });
      },
      candidateSaying(text) {
        link.send({ type: 'caption', who: 'candidate', text, partial: true });
      },
      interviewerSaying: replies.saying,
      speechStopped() {
        latency.speechStopped();
        floor.move('speech_stopped');
      },
      candidateSaid(text) {
        const turn = { who: 'candidate' as const, text, started_at: floor.speakingSince ?? now(), ended_at: now() };
        latency.transcribed();
        floor.speakingSince = null;
        // Said while its question was open: kept with it, and answered only if it still is.
        const at = question.index;
        floor.move('candidate_said');
        serially(async () => {
          if (floor.ended) return;
          await question.keep(turn, at);
          link.send({ type: 'caption', who: 'candidate', text });
          if (at !== question.index) return;
          const asked = spokenRequest(text);
          if (asked === 'repeat') return ask(true);
          // Asked whether it is a person, at any point: it says it is an AI, then asks the question again.
          const { index } = question;
          if (asksIfHuman(text)) return respond(answerAsAnAi(questions[index], index, questions.length));
          if (asked !== 'done' && afterCandidateTurn(floor.followUps, allowedFollowUps) === 'follow_up') {
            floor.followUps++;
            respond(askFollowUp(questions[index]));
          } else await close();
        });
      },
      interviewerAudio(pcm) {
        if (!replies.speaking) latency.firstAudio();
        replies.audio(pcm);
        floor.heard = true;
      },
      interviewerSaid: replies.said,
      responseDone() {
        replies.done();
        floor.move('reply_done');
      },
    },
  });

  function end(reason: LiveEnd): void {
    if (!floor.move('end')) return;
    if (timer) clearTimeout(timer);
    provider.close();
    void recorder.close();
    link.close(reason);
    serially(async () => {
      try {
        await replies.keepUnfinished();
      } finally {
        stepsDone();
      }
    });
  }

  try {
    await provider.open();
  } catch (err) {
    // No session to speak with: the recording this socket opened is closed as it is, and the caller says why.
    floor.move('end');
    await recorder.close();
    throw err;
  }
  serially(async () => open(await stores.interviews.nextQuestion(interview)));

  return {
    audio(pcm) {
      if (floor.ended) return;
      recorder.candidate(pcm);
      provider.current?.appendAudio(pcm);
    },
    control(c) {
      if (floor.ended) return;
      if (c.type === 'repeat') {
        // While the interviewer speaks or is being asked to, a repeat starts nothing: one response at a time.
        if (!floor.replying) serially(async () => void (!floor.replying && !floor.ended && ask(true)));
      } else if (c.type === 'done') {
        // Only for the question under way, once the candidate has heard it: a second press that arrives after
        // the first closed it would otherwise close the next one before a word of it was heard.
        const at = question.index;
        const under = (c.question_index ?? at) === at;
        serially(async () => {
          if (under && at === question.index && floor.heard && !floor.ended) return close();
          link.send({ type: 'error', message: 'The next question is on its way: say you are done once you have heard it.' });
        });
      } else if (c.type === 'played') replies.cut(c.ms, c.reply, c.through);
      else if (c.type === 'noise') liveCutIns.inc({ outcome: 'ignored' });
      else if (c.type === 'first_sound') latency.heard(c.after, c.ms);
      else
        serially(async () => {
          await steps.switchToText((await stores.interviews.get(interview._id)) ?? interview, now());
          end('switched_to_text');
        });
    },
    end,
    closed,
  };
}
