import type { Database } from '../database';
import { isDuplicateKey } from '../duplicate-key';
import { interviewList } from '../lists/interviews';
import { recordEvent } from '../webhooks/events';
import { interviewEventKey } from '../webhooks/resources';
import { interviewIdOf, tokenMatches, type AnswerDoc, type InterviewDoc, type StoredAnswer, type StoredAssessment } from './interviews';

/**
 * An interview as the candidate takes it: found by its link, its questions' clocks, its answers, and its
 * status moving from invited to started to completed. Clocks and answers are documents of their own, keyed
 * `<interview>|<index>` and only ever inserted: on FerretDB an update rewrites a whole document outside any
 * transaction, so two writers of one document can lose a write, while an insert of an `_id` happens once.
 * Every status change and every saved answer is a change of the interview in its lists (infra/lists/).
 */

const slot = (interviewId: string, index: number) => `${interviewId}|${index}`;

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
    if (!(await db.interviewAnswers.findOne({ _id: slot(interview._id, i) }))) return i;
  }
  return null;
}

/** When the question was first served: now, unless it was served before. */
export async function serveQuestion(db: Database, interviewId: string, index: number, now: Date): Promise<Date> {
  const _id = slot(interviewId, index);
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
  return (await db.questionClocks.findOne({ _id: slot(interviewId, index) }))?.served_at ?? null;
}

/** Invited → started. False when the interview is in any other state (a second Start changes nothing). */
export async function startInterview(db: Database, interview: InterviewDoc, now: Date): Promise<boolean> {
  if (interview.status !== 'invited') return false;
  await interviewList(db).update(interview, { status: 'started' }, (at) => ({
    ...recordEvent(interviewEventKey('interview.started', interview)),
    $set: { status: 'started', started_at: now, answers: interview.answers ?? [], updated_at: at },
  }));
  return true;
}

/**
 * Saves an answer once: false when the question already had one (a second submit, another tab). The
 * interview's copy of its answers is then rewritten whole from their documents, so a copy that lost a race
 * is mended by the next save.
 */
export async function saveAnswer(db: Database, interview: InterviewDoc, answer: StoredAnswer): Promise<boolean> {
  try {
    await db.interviewAnswers.insertOne({ _id: slot(interview._id, answer.index), interview_id: interview._id, ...answer });
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
  await copyAnswers(db, interview);
  return true;
}

/** Started → completed, once every question has an answer. False when it is not (yet) the time. */
export async function completeInterview(db: Database, interview: InterviewDoc, now: Date): Promise<boolean> {
  if (interview.status !== 'started' || (await nextQuestion(db, interview)) !== null) return false;
  const answers = await readAnswers(db, interview);
  await interviewList(db).update(interview, { status: 'completed' }, (at) => ({
    ...recordEvent(interviewEventKey('interview.completed', interview)),
    $set: { status: 'completed', completed_at: now, answers, assessment: PENDING_ASSESSMENT, updated_at: at },
  }));
  return true;
}

/** What GET /interviews/:id shows from the finish until the interview's workflow stores the assessment. */
const PENDING_ASSESSMENT: StoredAssessment = {
  status: 'pending',
  provider: null,
  questions: [],
  overall: null,
  error: null,
  assessed_at: null,
};

async function readAnswers(db: Database, interview: InterviewDoc): Promise<StoredAnswer[]> {
  const docs = await Promise.all((interview.questions ?? []).map((_, i) => db.interviewAnswers.findOne({ _id: slot(interview._id, i) })));
  return docs.filter((d): d is AnswerDoc => d !== null).map(({ _id: _ignored, interview_id: _interview, ...answer }) => answer);
}

async function copyAnswers(db: Database, interview: InterviewDoc): Promise<void> {
  const answers = await readAnswers(db, interview);
  await interviewList(db).update(interview, {}, (at) => ({ $set: { answers, updated_at: at } }));
}
