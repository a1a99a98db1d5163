import type { Context } from 'koa';
import type { Question } from '../../shared/jobs/schema';
import { secondsLeft } from '../../shared/interviews/session';
import { dayOf } from '../../shared/interviews/invitation-email';
import { expiresAtOf, type InterviewDoc } from '../../infra/documents/interviews';
import type { LinkPage } from '../../operations/interview-steps';
import { sendPage } from '../layout';
import {
  CompletedPage,
  ContinuePage,
  ExpiredPage,
  FinishPage,
  NotReadyPage,
  QuestionPage,
  WelcomePage,
  type InterviewFrame,
} from './pages';
import { LivePage } from './live-page';

/** The link's page for where the candidate stands (operations/interview-steps.ts); `late`: the query's notice. */
export function showStanding(
  ctx: Context,
  stands: LinkPage,
  { interview, frame, at, late: asked }: { interview: InterviewDoc; frame: InterviewFrame; at: Date; late: unknown },
): void {
  const questions = interview.questions ?? [];
  const late = lateNotice(asked, questions.length);
  switch (stands.page) {
    case 'question':
      return showQuestion(ctx, 200, { frame, questions, index: stands.index, served: stands.served, at, notice: late });
    case 'expired':
      return sendPage(ctx, 200, <ExpiredPage frame={frame} expiredOn={dayOf(expiresAtOf(interview))} />);
    case 'not_ready':
      return sendPage(ctx, 200, <NotReadyPage frame={frame} failed={stands.failed} />);
    case 'welcome':
      return sendPage(ctx, 200, <WelcomePage frame={frame} questions={questions} />);
    case 'completed':
      return sendPage(ctx, 200, <CompletedPage frame={frame} />);
    case 'finish':
      return sendPage(ctx, 200, <FinishPage frame={frame} notice={late} />);
    case 'live':
      return sendPage(ctx, 200, <LivePage frame={frame} index={stands.index} count={questions.length} />);
    case 'continue':
      return sendPage(ctx, 200, <ContinuePage frame={frame} index={stands.index} total={questions.length} timedOut={stands.timedOut} />);
  }
}

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
