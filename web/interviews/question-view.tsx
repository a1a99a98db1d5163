import type { Context } from 'koa';
import type { Question } from '../../shared/jobs/schema';
import { secondsLeft } from '../../shared/interviews/session';
import { sendPage } from '../layout';
import { QuestionPage, type InterviewFrame } from './pages';

/** A question's page, with the time it has left by the server's clock. */
export function showQuestion(
  ctx: Context,
  status: number,
  q: {
    frame: InterviewFrame;
    questions: Question[];
    index: number;
    served: Date;
    at: Date;
    notice?: string;
    error?: string;
    draft?: string;
  },
): void {
  const question = q.questions[q.index];
  sendPage(
    ctx,
    status,
    <QuestionPage
      frame={q.frame}
      question={question}
      index={q.index}
      count={q.questions.length}
      secondsLeft={secondsLeft(question, q.served, q.at)}
      notice={q.notice}
      error={q.error}
      draft={q.draft}
    />,
  );
}

/** The notice for `?late=N`: question N's answer came after its time. */
export function lateNotice(late: unknown, count: number): string | undefined {
  const n = typeof late === 'string' && /^[0-9]{1,3}$/.test(late) ? Number(late) : 0;
  return n >= 1 && n <= count ? `Your answer to question ${n} arrived after its time limit, so it was not saved.` : undefined;
}
