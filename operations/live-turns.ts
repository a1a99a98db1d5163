import { trace } from '@opentelemetry/api';
import type { StoredAnswer, StoredTurn } from '../infra/documents/interviews';
import { answerOf, heardText } from '../shared/interviews/live';
import { MAX_TEXT_ANSWER } from '../shared/interviews/session';
import type { Stores } from '../stores';
import type { Reply } from './live-replies';

const tracer = trace.getTracer('hiring-integration');

/**
 * The open question of a live conversation and its turns, each kept as it completes (stores/interview-answers.ts)
 * with a span of its own (who spoke, which question, how long). A turn belongs to the question it was said
 * for, however late its transcript comes: a turn of a question closed since is kept with that question.
 */
export function questionTurns(stores: Pick<Stores, 'interviews'>, interviewId: string) {
  let index = -1;
  let list: StoredTurn[] = [];
  return {
    /** The open question, or -1 before the first. */
    get index(): number {
      return index;
    },
    /** Its turns so far, in order. */
    get list(): readonly StoredTurn[] {
      return list;
    },
    /** Opens question `at`, with the turns kept of it so far (a conversation that resumes continues them). */
    async open(at: number): Promise<readonly StoredTurn[]> {
      index = at;
      list = await stores.interviews.turns(interviewId, at);
      return list;
    },
    /**
     * The open question's answer, as its close saves it: the candidate's turns joined (timed out when they said
     * nothing), how long they spoke, and every turn in the order each person started speaking, whatever order
     * their transcripts came in.
     */
    answer(type: StoredAnswer['type'], answeredAt: Date): StoredAnswer {
      const text = answerOf(list).slice(0, MAX_TEXT_ANSWER);
      const spoke = list.filter((t) => t.who === 'candidate');
      const seconds = spoke.reduce((s, t) => s + (t.ended_at.getTime() - t.started_at.getTime()) / 1000, 0);
      return {
        index,
        type,
        text: text === '' ? null : text,
        duration_seconds: spoke.length > 0 ? Math.round(seconds * 10) / 10 : null,
        answered_at: answeredAt,
        timed_out: text === '',
        turns: [...list].sort((a, b) => a.started_at.getTime() - b.started_at.getTime()),
      };
    },
    /** Keeps a completed turn of question `at`: its place, or null when it was not kept. */
    async keep(turn: StoredTurn, at = index): Promise<number | null> {
      const span = tracer.startSpan('live.turn', {
        startTime: turn.started_at,
        attributes: { 'hiring.live.who': turn.who, 'hiring.live.question_index': at },
      });
      const seq = await stores.interviews.addTurn(interviewId, at, turn, at === index ? list.length : 0);
      if (seq !== null && at === index) list.push(turn);
      span.end(turn.ended_at);
      return seq;
    },
    /** Cuts the kept turn of `reply` to the words heard in its first `ms`: the words, or null when it was not kept. */
    async cut(reply: Reply, ms: number): Promise<string | null> {
      const kept = reply.kept;
      if (!kept) return null;
      const cut = { text: heardText(kept.text, ms, reply.receivedMs), ended_at: new Date(reply.startedAt.getTime() + ms) };
      await stores.interviews.reviseTurn(interviewId, kept.index, kept.seq, cut);
      if (kept.index === index && list[kept.seq]) list[kept.seq] = { ...list[kept.seq], ...cut };
      return cut.text;
    },
    /** Revises the kept turn of `reply` to `text` (its whole transcript, as far as it was heard), ending now. */
    async revise(reply: Reply, text: string): Promise<void> {
      const kept = reply.kept;
      if (!kept) return;
      const to = { text, ended_at: new Date() };
      await stores.interviews.reviseTurn(interviewId, kept.index, kept.seq, to);
      if (kept.index === index && list[kept.seq]) list[kept.seq] = { ...list[kept.seq], ...to };
    },
  };
}
