import type { Database } from '../infra/database';
import { isDuplicateKey } from '../infra/duplicate-key';
import {
  interviewIdOf,
  tokenMatches,
  type AnswerDoc,
  type InterviewDoc,
  type StoredAnswer,
  type StoredTurn,
  type TurnDoc,
} from '../infra/documents/interviews';
import { LIVE_LIMITS } from '../shared/interviews/live';

/**
 * An interview as the candidate takes it: found by its link, its questions' clocks, its answers, and its
 * status moving from invited to started to completed. Clocks and answers are documents of their own, keyed
 * `<interview>|<index>` and only ever inserted: on FerretDB an update rewrites a whole document outside any
 * transaction, so two writers of one document can lose a write, while an insert of an `_id` happens once.
 * Every status change and every saved answer is a change of the interview, made by its store (stores/interviews.ts),
 * the one module that uses these.
 */

/** The `_id` of a question's clock and of its answer. */
export const answerId = (interviewId: string, index: number) => `${interviewId}|${index}`;

/** The interview of a link's token: one exact `_id` read, then the whole token compared. */
export async function interviewOfToken(db: Database, token: string): Promise<InterviewDoc | null> {
  const id = interviewIdOf(token);
  if (!id) return null;
  const interview = await db.interviews.findOne({ _id: id });
  return interview && tokenMatches(interview, token) ? interview : null;
}

/**
 * The first question without an answer, or null when every one has one. The interview's copy of its answers
 * is written after each answer, so usually one read settles it: the first question the copy lacks.
 */
export async function nextQuestion(db: Database, interview: InterviewDoc): Promise<number | null> {
  const copied = new Set((interview.answers ?? []).map((a) => a.index));
  for (let i = 0; i < (interview.questions?.length ?? 0); i++) {
    if (copied.has(i)) continue;
    if (!(await db.interviewAnswers.findOne({ _id: answerId(interview._id, i) }))) return i;
  }
  return null;
}

/** When the question was first served: now, unless it was served before. */
export async function serveQuestion(db: Database, interviewId: string, index: number, now: Date): Promise<Date> {
  const _id = answerId(interviewId, index);
  try {
    await db.questionClocks.insertOne({ _id, served_at: now });
    return now;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const clock = await db.questionClocks.findOne({ _id });
    return clock!.served_at;
  }
}

/** When the question was first served, or null if it never was. */
export async function servedAt(db: Database, interviewId: string, index: number): Promise<Date | null> {
  return (await db.questionClocks.findOne({ _id: answerId(interviewId, index) }))?.served_at ?? null;
}

/** The saved answers of the interview, from their own documents, in question order. */
export async function readAnswers(db: Database, interview: InterviewDoc): Promise<StoredAnswer[]> {
  const docs = await Promise.all(
    (interview.questions ?? []).map((_, i) => db.interviewAnswers.findOne({ _id: answerId(interview._id, i) })),
  );
  return docs
    .filter((d): d is AnswerDoc => d !== null)
    .map(({ _id: _ignored, interview_id: _interview, transcript: _heard, ...answer }) => answer);
}

/**
 * Keeps a recorded answer's transcript with the answer's own document, where the assessment reads it and an
 * erasure removes it, so it never travels through the interview workflow's history. An answer that is gone (the
 * candidate was erased meanwhile) gets none.
 */
export async function keepTranscript(db: Database, interviewId: string, index: number, text: string): Promise<boolean> {
  const kept = await db.interviewAnswers.updateOne({ _id: answerId(interviewId, index) }, { $set: { transcript: text } });
  return kept.matchedCount === 1;
}

/** The transcripts kept for the interview's recorded answers, by question index. */
export async function transcriptsOf(db: Database, interview: InterviewDoc): Promise<Record<string, string>> {
  const docs = await Promise.all(
    (interview.answers ?? []).filter((a) => a.recording).map((a) => db.interviewAnswers.findOne({ _id: answerId(interview._id, a.index) })),
  );
  return Object.fromEntries(docs.flatMap((d) => (d && typeof d.transcript === 'string' ? [[String(d.index), d.transcript]] : [])));
}

/** The `_id` of a live conversation's turn. */
const turnId = (interviewId: string, index: number, seq: number) => `${interviewId}|${index}|${seq}`;
const turnIds = (interviewId: string, index: number) =>
  Array.from({ length: LIVE_LIMITS.turnsPerQuestion }, (_, n) => turnId(interviewId, index, n));

/**
 * Keeps a live turn of question `index` as it completes, after those kept before it: a crash loses at most the
 * turn under way. Null when the question holds its most turns already.
 */
export async function addTurn(db: Database, interviewId: string, index: number, turn: StoredTurn, after: number): Promise<number | null> {
  for (let seq = after; seq < LIVE_LIMITS.turnsPerQuestion; seq++) {
    try {
      await db.interviewTurns.insertOne({ _id: turnId(interviewId, index, seq), interview_id: interviewId, index, seq, ...turn });
      return seq;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  return null;
}

/**
 * Revises a kept interviewer turn: to what the candidate heard of it before cutting in, or to its whole
 * transcript once it was kept as far as it had come. An update by exact `_id`, never an upsert, so a turn an
 * erasure took stays gone.
 */
export async function reviseTurn(
  db: Database,
  interviewId: string,
  index: number,
  seq: number,
  to: Pick<StoredTurn, 'text' | 'ended_at'>,
): Promise<void> {
  await db.interviewTurns.updateOne({ _id: turnId(interviewId, index, seq) }, { $set: { text: to.text, ended_at: to.ended_at } });
}

/** The turns kept for question `index`, in order: exact `_id` reads, at once. */
export async function turnsOf(db: Database, interviewId: string, index: number): Promise<StoredTurn[]> {
  const docs = await Promise.all(turnIds(interviewId, index).map((_id) => db.interviewTurns.findOne({ _id })));
  return docs.filter((d): d is TurnDoc => d !== null).map(({ who, text, started_at, ended_at }) => ({ who, text, started_at, ended_at }));
}

/** Forgets the interview's saved answers and live turns (an erasure): the interview keeps none either. */
export async function forgetAnswers(db: Database, interview: Pick<InterviewDoc, '_id' | 'questions'>): Promise<void> {
  const questions = interview.questions ?? [];
  await Promise.all(questions.map((_, n) => db.interviewAnswers.deleteOne({ _id: answerId(interview._id, n) })));
  await Promise.all(questions.map((_, n) => db.interviewTurns.deleteMany({ _id: { $in: turnIds(interview._id, n) } })));
}
