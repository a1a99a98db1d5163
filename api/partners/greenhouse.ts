import Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { handleErrors, type ErrorFamily } from '../errors';
import { parseJson } from '../middleware';
import { compileValidator } from '../../shared/validation';
import {
  ConflictError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnfitCandidateError,
  ValidationError,
  InvalidJsonError,
  PayloadTooLargeError,
} from '../../shared/errors';
import { GreenhouseSendTest, greenhouseApplicationOf, greenhouseCandidate, greenhouseStatus } from '../../shared/partners/greenhouse';
import { partnerAuth } from './doors';
import { withinLimits } from '../limits';

const validateSendTest = compileValidator(GreenhouseSendTest);

/**
 * Greenhouse's errors: 401 for the key and 404 for a test or an order not found, as its contract names them,
 * with a message; a request that is not one (400) and a candidate the test cannot take (400, the contract names
 * no status for it: Greenhouse shows the message on a failed send). `{message}` in every case.
 */
export const greenhouseFamily: ErrorFamily<{ message: string }> = {
  name: 'greenhouse',
  render(error) {
    const message = error.message;
    if (error instanceof UnauthorizedError) return { status: 401, body: { message: 'Invalid or revoked Greenhouse key for this partner' } };
    if (error instanceof NotFoundError) return { status: 404, body: { message } };
    if (error instanceof ValidationError)
      return {
        status: 400,
        body: { message: `${message}: ${error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}` },
      };
    if (error instanceof InvalidJsonError || error instanceof UnfitCandidateError) return { status: 400, body: { message } };
    if (error instanceof ConflictError) return { status: 409, body: { message } };
    if (error instanceof PayloadTooLargeError) return { status: 413, body: { message } };
    if (error instanceof RateLimitedError) return { status: 429, body: { message } };
    if (error instanceof ServiceUnavailableError) return { status: 503, body: { message } };
    return null;
  },
  internal: () => ({ status: 500, body: { message: 'An unexpected error occurred' } }),
};

/**
 * Greenhouse's door (docs/ats/greenhouse.md): its Assessment Partner API, hosted by us under `/partners/greenhouse/`:
 * `list_tests` (the workspace's tests), `send_test` (the candidate invited or called, through the use cases the
 * public API runs; the answer names the order, the same for the same order sent again) and `test_status` (the
 * order's latest result). Authenticated by the key the workspace made for Greenhouse, as HTTP Basic.
 */
export function greenhouseRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/partners/greenhouse' });
  router.use(handleErrors(greenhouseFamily as ErrorFamily), partnerAuth(deps, 'greenhouse'));
  const orders = () => deps.operations.partnerOrders;

  router.get('/list_tests', async (ctx) => {
    ctx.body = (await orders().tests(ctx.state.workspace)).map((t) => ({ partner_test_id: t._id, partner_test_name: t.name }));
  });

  router.post('/send_test', parseJson(deps.config.BODY_LIMIT), async (ctx) => {
    const body = validateSendTest(ctx.request.body);
    const candidate = greenhouseCandidate(body);
    if (!candidate)
      throw new ValidationError('Request validation failed', [
        { path: ['candidate'], message: 'needs first_name, last_name, email and greenhouse_profile_url' },
      ]);
    const application = greenhouseApplicationOf(candidate.greenhouse_profile_url) ?? candidate.email.toLowerCase();
    const take = { limit: deps.stores.limits.candidates, name: 'candidates', counts: 'candidates per hour' };
    const id = await withinLimits(ctx, [take], () =>
      orders().order(ctx.state.workspace, {
        ats: 'greenhouse',
        testId: body.partner_test_id,
        // One order per application and test, however often sent; a resend's new URL is where the result goes.
        orderKey: `${application}\n${body.partner_test_id}`,
        applicationId: application,
        job: null,
        callbackUrl: body.url,
        callbackAuth: ctx.state.partnerKey ?? null,
        candidate: {
          firstName: candidate.first_name,
          lastName: candidate.last_name,
          email: candidate.email,
          phone: candidate.phone_number,
        },
      }),
    );
    ctx.body = { partner_interview_id: id };
  });

  router.get('/test_status', async (ctx) => {
    const id = ctx.query.partner_interview_id;
    if (typeof id !== 'string' || !id)
      throw new ValidationError('Request validation failed', [{ path: ['partner_interview_id'], message: 'is required' }]);
    const { result, profileUrl } = await orders().result(ctx.state.workspace, 'greenhouse', id);
    ctx.body = greenhouseStatus(result, profileUrl);
  });
  return router;
}
