import Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { handleErrors, type ErrorFamily } from '../errors';
import { parseJson } from '../middleware';
import { compileValidator } from '../../shared/validation';
import {
  ConflictError,
  InvalidJsonError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnfitCandidateError,
  ValidationError,
} from '../../shared/errors';
import { AshbyCancel, AshbyList, AshbyStart } from '../../shared/partners/ashby';
import { partnerAuth } from './doors';
import { withinLimits } from '../limits';

const validateList = compileValidator(AshbyList);
const validateStart = compileValidator(AshbyStart);
const validateCancel = compileValidator(AshbyCancel);

const failure = (status: number, message: string) => ({ status, body: { success: false as const, message, errors: [message] } });

/**
 * Ashby's errors, in its envelope (`{success: false, errors}`, with `message`): 401 for the key, 404 for an
 * assessment type or an assessment not found, 422 for a start Ashby should show its user why it was refused
 * (a candidate the test cannot take), 400 for a request that is not one.
 */
export const ashbyFamily: ErrorFamily<{ success: false; message: string; errors: string[] }> = {
  name: 'ashby',
  render(error) {
    if (error instanceof UnauthorizedError) return failure(401, 'Invalid or revoked Ashby key for this partner');
    if (error instanceof NotFoundError) return failure(404, error.message);
    if (error instanceof UnfitCandidateError) return failure(422, error.message);
    if (error instanceof ValidationError)
      return failure(400, `${error.message}: ${error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`);
    if (error instanceof InvalidJsonError) return failure(400, error.message);
    if (error instanceof ConflictError) return failure(409, error.message);
    if (error instanceof PayloadTooLargeError) return failure(413, error.message);
    if (error instanceof RateLimitedError) return failure(429, error.message);
    if (error instanceof ServiceUnavailableError) return failure(503, error.message);
    return null;
  },
  internal: () => failure(500, 'An unexpected error occurred'),
};

/**
 * Ashby's door (docs/ats/ashby.md): the partner's side of its assessments framework, hosted by us under
 * `/partners/ashby/`: `assessment.list` (the workspace's tests), `assessment.start` (the candidate invited or
 * called through the use cases the public API runs; one assessment per application and test, the same id
 * for the same start sent again) and `assessment.cancel` (through the one cancel). RPC-style POSTs,
 * authenticated by the key the workspace made for Ashby, as HTTP Basic.
 */
export function ashbyRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/partners/ashby' });
  router.use(handleErrors(ashbyFamily as ErrorFamily), partnerAuth(deps, 'ashby'), parseJson(deps.config.BODY_LIMIT));
  const orders = () => deps.operations.partnerOrders;

  router.post('/assessment.list', async (ctx) => {
    validateList(ctx.request.body ?? {});
    const tests = await orders().tests(ctx.state.workspace);
    ctx.body = {
      success: true,
      results: tests.map((t) => ({ assessment_type_id: t._id, name: t.name, description: t.description ?? '' })),
    };
  });

  router.post('/assessment.start', async (ctx) => {
    const body = validateStart(ctx.request.body ?? {});
    const workspace = ctx.state.workspace;
    // Ashby's start names no phone: a phone screen's comes from Ashby's own record of the candidate.
    const phone = body.candidate.phone_number ?? (await orders().ashbyPhone(workspace, body.assessment_type_id, body.candidate.ashby_id));
    const take = { limit: deps.stores.limits.candidates, name: 'candidates', counts: 'candidates per hour' };
    const id = await withinLimits(ctx, [take], () =>
      orders().order(workspace, {
        ats: 'ashby',
        testId: body.assessment_type_id,
        orderKey: `${body.application.ashby_id}\n${body.assessment_type_id}`,
        applicationId: body.application.ashby_id,
        job: { id: body.job.ashby_id, name: body.job.name },
        callbackUrl: null,
        callbackAuth: null,
        candidate: { firstName: body.candidate.first_name, lastName: body.candidate.last_name, email: body.candidate.email, phone },
      }),
    );
    ctx.body = { success: true, results: { assessment_id: id } };
  });

  router.post('/assessment.cancel', async (ctx) => {
    const { assessment_id } = validateCancel(ctx.request.body ?? {});
    await orders().cancel(ctx.state.workspace, 'ashby', assessment_id);
    ctx.body = { success: true, results: { assessment_id } };
  });
  return router;
}
