import Router from '@koa/router';
import type { Context } from 'koa';
import { NotFoundError } from '../../shared/errors';
import { recordingOf, recordingReceiver } from './uploads';
import { interviewLink } from './link';
import { recorderErrors } from './recorder-errors';
import type { InterviewDoc } from '../../infra/documents/interviews';
import type { StepOutcome } from '../../operations/interview-steps';
import type { WebDeps } from '../deps';
import { formBody, sameOrigin } from '../forms';
import { linkLimits } from '../limits';
import { sendPage } from '../layout';
import { showQuestion, showStanding } from './question-view';
import { WelcomePage } from './pages';

/**
 * The candidate's interview at `interview_url`. The link's token is the credential. Every form posts back
 * and is answered with a redirect to the interview's one page, which shows whatever comes next (so a reload
 * or the back button never sends an answer twice).
 */
export function interviewRoutes({ stores, now, config, operations }: WebDeps): Router {
  const router = new Router();
  const { recordings } = stores;
  const steps = operations.interviewSteps;
  const limited = linkLimits(stores.limits);
  const receive = recordingReceiver({ recordings, config, now });
  const { load, frameOf } = interviewLink({ stores, config });

  /** Back to the interview's one page, which shows what comes next (with the notice of a question that ran out). */
  const backTo = (ctx: Context, path: string, outcome: StepOutcome = { late: null }) => {
    ctx.status = 303;
    ctx.redirect(path + (outcome.late === null ? '' : `?late=${outcome.late}`));
  };
  const noConsent = async (ctx: Context, status: number, interview: InterviewDoc, path: string) =>
    sendPage(ctx, status, <WelcomePage frame={await frameOf(interview, path)} questions={interview.questions ?? []} error={NO_CONSENT} />);

  router.get('/interview/:token', limited, async (ctx) => {
    const { interview, path } = await load(ctx);
    const at = now();
    const stands = await steps.standing(interview, at);
    showStanding(ctx, stands, { interview, frame: await frameOf(interview, path), at, late: ctx.query.late });
  });

  router.post('/interview/:token/next', limited, sameOrigin, async (ctx) => {
    const { interview, path } = await load(ctx);
    backTo(ctx, path, await steps.next(interview, now()));
  });

  router.post('/interview/:token/start', limited, sameOrigin, formBody, async (ctx) => {
    const { interview, path } = await load(ctx);
    const consented = (ctx.request.body as Record<string, unknown> | undefined)?.consent === 'given';
    const outcome = await steps.start(interview, consented, now());
    if ('refused' in outcome) return noConsent(ctx, 422, interview, path);
    backTo(ctx, path, outcome);
  });

  // The candidate asks for a person, not an AI, to assess their answers (docs/assessments.md); back to the page.
  router.post('/interview/:token/no-ai-assessment', limited, sameOrigin, formBody, async (ctx) => {
    const { interview, path } = await load(ctx);
    await steps.declineAiAssessment(interview, now());
    backTo(ctx, path);
  });

  router.post('/interview/:token/answers/:index', limited, sameOrigin, formBody, async (ctx) => {
    const { interview, path } = await load(ctx);
    const questions = interview.questions ?? [];
    const index = Number(ctx.params.index);
    if (!Number.isInteger(index) || index < 0 || index >= questions.length) throw new NotFoundError('question not found');
    const body = ctx.request.body as Record<string, unknown> | undefined;
    const at = now();
    const outcome = await steps.answer(interview, index, typeof body?.answer === 'string' ? body.answer : '', at);
    if ('refused' in outcome) return noConsent(ctx, 409, interview, path);
    if ('invalid' in outcome) {
      const { invalid: error, served, draft } = outcome;
      return showQuestion(ctx, 422, { frame: await frameOf(interview, path), questions, index, served, at, error, draft });
    }
    backTo(ctx, path, outcome);
  });

  router.post(
    '/interview/:token/answers/:index/recording',
    recorderErrors(config.RECORDING_MAX_BYTES),
    limited,
    sameOrigin,
    async (ctx) => {
      const { interview, path } = await load(ctx);
      const index = Number(ctx.params.index);
      const question = Number.isInteger(index) ? (interview.questions ?? [])[index] : undefined;
      if (!question || question.type === 'text') throw new NotFoundError('question not found');
      const type = recordingOf(ctx, config);
      const open = await steps.recordingOpen(interview, index, now());
      if (!open.open) {
        ctx.status = 409;
        ctx.body = { message: open.why === 'no_consent' ? NO_CONSENT : 'This question is no longer open.', next: path };
        return;
      }
      const recording = await receive(ctx, interview, index, type);
      const outcome = await steps.recorded(interview, index, recording, open.served, Number(ctx.query.duration), now());
      ctx.body = { next: outcome.late === null ? path : `${path}?late=${outcome.late}` };
    },
  );

  router.post('/interview/:token/finish', limited, sameOrigin, async (ctx) => {
    const { interview, path } = await load(ctx);
    await steps.finish(interview, now());
    backTo(ctx, path);
  });

  return router;
}

const NO_CONSENT = 'Please tick the box to agree to your answers being recorded and assessed before you start.';
