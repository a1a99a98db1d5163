import Router from '@koa/router';
import type { Context } from 'koa';
import { NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../shared/errors';
import { RECORDING_TYPES, recordingType } from '../../shared/interviews/recordings';
import { paced, uploadGuard } from './uploads';
import { recorderErrors } from './recorder-errors';
import { ANSWER_GRACE_SECONDS, inTime, MAX_TEXT_ANSWER } from '../../shared/interviews/session';
import { expiresAtOf, type InterviewDoc } from '../../infra/documents/interviews';
import { linkExpired } from '../../shared/interviews/deadlines';
import { dayOf } from '../../shared/interviews/invitation-email';
import { companyOf } from '../../infra/documents/projects';
import type { WebDeps } from '../deps';
import { NotAnnouncedError } from '../../stores/resource-store';
import { formBody, sameOrigin } from '../forms';
import { CONSENT_TEXT_VERSION } from '../../shared/interviews/consent';
import { linkLimits } from '../limits';
import { sendPage } from '../layout';
import { lateNotice, showQuestion } from './question-view';
import { CompletedPage, ContinuePage, ExpiredPage, FinishPage, NotReadyPage, WelcomePage, type InterviewFrame } from './pages';

/**
 * The candidate's interview at `interview_url`. The link's token is the credential. Every form posts back
 * and is answered with a redirect to the interview's one page, which shows whatever comes next (so a reload
 * or the back button never sends an answer twice).
 */
export function interviewRoutes({ stores, now, config, logger, workflows }: WebDeps): Router {
  const router = new Router();
  const { interviews, recordings } = stores;
  const limited = linkLimits(stores.limits);
  const guardedUpload = uploadGuard({ recordings, config, now });
  /**
   * A candidate's step, written: the page goes on even when its event could not be announced, which the
   * interview's workflow announces once it is signalled of the change (its followInterview step finds the
   * change made, and its repeat announces it).
   */
  async function written(step: Promise<boolean>): Promise<boolean> {
    try {
      return await step;
    } catch (err) {
      if (!(err instanceof NotAnnouncedError)) throw err;
      logger.warn({ err: err.cause }, "a candidate's step was written; its announcement is left to the workflow");
      return true;
    }
  }

  /** The interview of the link, and the link's own path, which every form posts to and redirects back to. */
  async function load(ctx: Context): Promise<{ interview: InterviewDoc; path: string }> {
    const token = String(ctx.params.token);
    const interview = await interviews.ofToken(token);
    // An erased candidate's link opens nothing: there is no one left to take the interview.
    if (!interview || interview.erased_at) throw new NotFoundError('interview not found');
    return { interview, path: `/interview/${token}` };
  }
  /** What a rendered page shows of the job: read only when a page is rendered, not for a redirect. */
  async function frameOf(interview: InterviewDoc, path: string): Promise<InterviewFrame> {
    const [project, workspace] = await Promise.all([
      stores.projects.get(interview.project_id),
      stores.workspaces.get(interview.workspace_id),
    ]);
    const company = companyOf(project, workspace) ?? 'the company';
    const sender = workspace ? `${workspace.sender.first_name} ${workspace.sender.last_name}`.trim() : '';
    return {
      jobTitle: project?.job?.title ?? project?.name ?? 'Interview',
      company,
      contact: `${sender ? `${sender} at ${company}` : company}, ${workspace?.settings?.contact_email ?? config.EMAIL_FROM}`,
      path,
      retentionDays: workspace?.settings?.retention_days ?? null,
      aiDeclined: Boolean(interview.ai_assessment_declined_at),
    };
  }
  /** Whether the link has run out: the workflow marks it so at the deadline, and the page need not wait for that. */
  const expired = (i: InterviewDoc) => linkExpired(i.status, expiresAtOf(i), now());
  /** Signals the interview's workflow of a change; one it cannot hear now hears it when it next wakes (docs/pages.md). */
  const signal = (i: InterviewDoc) =>
    // A link posted to after its interview ended reopens nothing.
    workflows
      .interviewChanged(i, { reopen: false })
      .catch((err: unknown) => logger.warn({ err, interviewId: i._id }, 'interview workflow not signalled of a change'));
  const backTo = (ctx: Context, path: string, query = '') => {
    ctx.status = 303;
    ctx.redirect(path + query);
  };

  router.get('/interview/:token', limited, async (ctx) => {
    const { interview, path } = await load(ctx);
    const frame = await frameOf(interview, path);
    const questions = interview.questions ?? [];
    if (expired(interview)) return sendPage(ctx, 200, <ExpiredPage frame={frame} expiredOn={dayOf(expiresAtOf(interview))} />);
    if (interview.status === 'queued' || interview.status === 'failed' || questions.length === 0) {
      return sendPage(ctx, 200, <NotReadyPage frame={frame} failed={interview.status === 'failed'} />);
    }
    // An interview started before consent was asked for asks for it before its next question.
    if (interview.status === 'invited' || (interview.status === 'started' && !interview.consent)) {
      return sendPage(ctx, 200, <WelcomePage frame={frame} questions={questions} />);
    }
    if (interview.status === 'completed') return sendPage(ctx, 200, <CompletedPage frame={frame} />);
    const late = lateNotice(ctx.query.late, questions.length);
    const index = await interviews.nextQuestion(interview);
    if (index === null) return sendPage(ctx, 200, <FinishPage frame={frame} notice={late} />);
    // A page load moves nothing: mail scanners and link previews fetch every link. A question is served (its
    // time starts) and a timed-out one recorded only by the candidate's POSTs.
    const served = await interviews.servedAt(interview._id, index);
    const at = now();
    if (!served || !inTime(questions[index], served, at)) {
      return sendPage(ctx, 200, <ContinuePage frame={frame} index={index} total={questions.length} timedOut={served !== null} />);
    }
    showQuestion(ctx, 200, { frame, questions, index, served, at, notice: late });
  });

  /**
   * Serves the question after `index` (-1: the first), so the page the POST redirects to shows it, its time
   * running. Questions are answered in order (each step takes only the first without an answer), so no read
   * is needed to know which one comes next.
   */
  async function serveAfter(interview: InterviewDoc, index: number): Promise<void> {
    if (index + 1 < (interview.questions ?? []).length) await interviews.serveQuestion(interview._id, index + 1, now());
  }

  /** Records a question whose time ran out as timed out, and serves the next: the page says so (`?late=`). */
  async function timedOut(ctx: Context, interview: InterviewDoc, path: string, index: number, at: Date): Promise<void> {
    const question = (interview.questions ?? [])[index];
    await interviews.saveAnswer(interview, {
      index,
      type: question.type,
      text: null,
      duration_seconds: null,
      answered_at: at,
      timed_out: true,
    });
    await serveAfter(interview, index);
    backTo(ctx, path, `?late=${index + 1}`);
  }

  // Opens the next question: serves it, or, when its time ran out while the page was closed, records that.
  router.post('/interview/:token/next', limited, sameOrigin, async (ctx) => {
    const { interview, path } = await load(ctx);
    if (interview.status !== 'started' || expired(interview)) return backTo(ctx, path);
    const index = await interviews.nextQuestion(interview);
    if (index === null) return backTo(ctx, path);
    const served = await interviews.servedAt(interview._id, index);
    const at = now();
    if (served && !inTime((interview.questions ?? [])[index], served, at)) return timedOut(ctx, interview, path, index, at);
    if (!served) await interviews.serveQuestion(interview._id, index, at);
    backTo(ctx, path);
  });

  router.post('/interview/:token/start', limited, sameOrigin, formBody, async (ctx) => {
    const { interview, path } = await load(ctx);
    const agreed = (ctx.request.body as Record<string, unknown> | undefined)?.consent === 'given';
    if (!agreed && !interview.consent && !expired(interview) && (interview.status === 'invited' || interview.status === 'started')) {
      const frame = await frameOf(interview, path);
      return sendPage(ctx, 422, <WelcomePage frame={frame} questions={interview.questions ?? []} error={NO_CONSENT} />);
    }
    if (!expired(interview) && (await written(interviews.start(interview, now(), CONSENT_TEXT_VERSION)))) {
      await serveAfter(interview, -1);
      await signal(interview);
    }
    backTo(ctx, path);
  });

  // The candidate asks for a person, not an AI, to assess their answers (docs/assessments.md); back to the page.
  router.post('/interview/:token/no-ai-assessment', limited, sameOrigin, formBody, async (ctx) => {
    const { interview, path } = await load(ctx);
    if (!expired(interview) && (await written(interviews.declineAiAssessment(interview, now())))) {
      logger.info({ interviewId: interview._id }, 'AI assessment declined by the candidate');
    }
    backTo(ctx, path);
  });

  router.post('/interview/:token/answers/:index', limited, sameOrigin, formBody, async (ctx) => {
    const { interview, path } = await load(ctx);
    const questions = interview.questions ?? [];
    const index = Number(ctx.params.index);
    if (!Number.isInteger(index) || index < 0 || index >= questions.length) throw new NotFoundError('question not found');
    if (!interview.consent) {
      return sendPage(ctx, 409, <WelcomePage frame={await frameOf(interview, path)} questions={questions} error={NO_CONSENT} />);
    }
    // Not started, finished, expired, or a form of a question already answered (another tab): the page shows where it stands.
    if (interview.status !== 'started' || expired(interview) || (await interviews.nextQuestion(interview)) !== index)
      return backTo(ctx, path);
    const served = await interviews.servedAt(interview._id, index);
    if (!served) return backTo(ctx, path);
    const question = questions[index];
    const at = now();
    if (!inTime(question, served, at)) return timedOut(ctx, interview, path, index, at);
    const body = ctx.request.body as Record<string, unknown> | undefined;
    const text = typeof body?.answer === 'string' ? body.answer.trim() : '';
    if (text === '' || text.length > MAX_TEXT_ANSWER) {
      const error =
        text === '' ? 'Please write an answer before you submit it.' : `Please shorten your answer to ${MAX_TEXT_ANSWER} characters.`;
      return showQuestion(ctx, 422, { frame: await frameOf(interview, path), questions, index, served, at, error, draft: text });
    }
    await interviews.saveAnswer(interview, { index, type: question.type, duration_seconds: null, answered_at: at, text, timed_out: false });
    await serveAfter(interview, index);
    backTo(ctx, path);
  });

  router.post(
    '/interview/:token/answers/:index/recording',
    recorderErrors(config.RECORDING_MAX_BYTES),
    limited,
    sameOrigin,
    async (ctx) => {
      const { interview, path } = await load(ctx);
      const questions = interview.questions ?? [];
      const index = Number(ctx.params.index);
      const question = Number.isInteger(index) ? questions[index] : undefined;
      if (!question || question.type === 'text') throw new NotFoundError('question not found');
      const type = recordingType(ctx.get('Content-Type'));
      if (!type) throw new UnsupportedMediaTypeError(`A recording is one of ${RECORDING_TYPES.join(', ')}.`);
      if (Number(ctx.get('Content-Length')) > config.RECORDING_MAX_BYTES) throw new PayloadTooLargeError('the recording limit');
      if (!interview.consent) {
        ctx.status = 409;
        ctx.body = { message: NO_CONSENT, next: path };
        return;
      }
      const served = await interviews.servedAt(interview._id, index);
      if (interview.status !== 'started' || expired(interview) || !served || (await interviews.nextQuestion(interview)) !== index) {
        ctx.status = 409;
        ctx.body = { message: 'This question is no longer open.', next: path };
        return;
      }
      const recording = await guardedUpload(interview, index, (id, maxBytes) =>
        recordings.store(paced(ctx.req, config.UPLOAD_MIN_BYTES, config.UPLOAD_RATE_WINDOW_SECONDS * 1000), {
          id,
          interviewId: interview._id,
          index,
          type,
          maxBytes,
        }),
      );
      const at = now();
      const answer = { index, type: question.type, text: null, answered_at: at };
      if (!inTime(question, served, at)) {
        await recordings.remove(recording);
        await interviews.saveAnswer(interview, { ...answer, duration_seconds: null, timed_out: true });
        await serveAfter(interview, index);
        ctx.body = { next: `${path}?late=${index + 1}` };
        return;
      }
      const seconds = Number(ctx.query.duration);
      const duration =
        Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, question.time_limit_seconds + ANSWER_GRACE_SECONDS) : null;
      const recorded = { id: recording._id, type: recording.type, size: recording.size };
      // Another tab's answer won: this recording belongs to no answer.
      if (!(await interviews.saveAnswer(interview, { ...answer, recording: recorded, duration_seconds: duration, timed_out: false }))) {
        await recordings.remove(recording);
      }
      await serveAfter(interview, index);
      ctx.body = { next: path };
    },
  );

  router.post('/interview/:token/finish', limited, sameOrigin, async (ctx) => {
    const { interview, path } = await load(ctx);
    // A finish posted again signals the workflow again, in case it could not hear the first.
    if (interview.status === 'completed' || (!expired(interview) && (await written(interviews.complete(interview, now()))))) {
      await signal(interview);
    }
    backTo(ctx, path);
  });

  return router;
}

const NO_CONSENT = 'Please tick the box to agree to your answers being recorded and assessed before you start.';
