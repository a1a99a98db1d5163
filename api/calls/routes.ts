import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { publicRouter } from '../public-router';
import { callFamily } from '../errors';
import { compileValidator } from '../../shared/validation';
import { orNotFound } from '../owned';
import type { CallDoc } from '../../infra/documents/calls';
import { CallInitiateRequest, CampaignRequest, type CampaignResponse } from '../../shared/calls/schema';
import { CallCancelRequest, type CallCancelResponse, type CallViewResponse } from '../../shared/calls/resource';
import { callInitiateRules } from '../../shared/calls/rules';
import { ensureCampaign } from '../../operations/campaigns';
import { projectUrl } from '../../shared/public-urls';
import { callView } from '../../infra/views/calls';
import { checkWhatsAppTemplates } from './whatsapp-template-check';
import { listHandler } from '../lists';
import { withinLimits } from '../limits';
import { CallListQuery } from '../../shared/lists/schema';

const validateInitiate = compileValidator(CallInitiateRequest, callInitiateRules);
const validateCampaign = compileValidator(CampaignRequest);
const validateCancel = compileValidator(CallCancelRequest);

/** The call operations: campaigns, call/initiate and call status, with the call family's error shapes. */
export function callRoutes(deps: ApiDeps): Router {
  const { stores, config, whatsappTemplates: templates } = deps;
  const view = (c: CallDoc) => callView(c, config.PUBLIC_BASE_URL);
  const listCalls = listHandler('calls', CallListQuery, view);
  const router = publicRouter(deps, callFamily, { bodies: true });

  router.post('/campaigns', async (ctx) => {
    const { project, created } = await ensureCampaign(stores, ctx.state.workspace._id, validateCampaign(ctx.request.body));
    ctx.status = created ? 201 : 200;
    const body: CampaignResponse = {
      success: true,
      data: { project_id: project._id, project_url: projectUrl(config.PUBLIC_BASE_URL, project._id) },
    };
    ctx.body = body;
  });

  router.post('/call/initiate', async (ctx) => {
    const req = validateInitiate(ctx.request.body);
    if (templates) await checkWhatsAppTemplates(templates, req);
    const take = { limit: stores.limits.candidates, name: 'candidates', amount: req.candidates.length, counts: 'candidates per hour' };
    ctx.body = await withinLimits(ctx, [take], () => deps.operations.initiateCalls(ctx.state.workspace, req));
  });

  router.get('/calls', async (ctx) => {
    ctx.body = await listCalls(stores.calls, stores.signedTokens, ctx, stores.limits);
  });

  // Before /calls/:id/cancel, so `cancel` is never taken for a call id.
  router.post('/calls/cancel', async (ctx) => {
    const body: CallCancelResponse = {
      success: true,
      data: await deps.operations.cancels.cancelOfJob(ctx.state.workspace, validateCancel(ctx.request.body)),
    };
    ctx.body = body;
  });

  router.post('/calls/:id/cancel', async (ctx) => {
    const body: CallViewResponse = {
      success: true,
      data: view(await deps.operations.cancels.cancelRequested(ctx.state.workspace, ctx.params.id)),
    };
    ctx.body = body;
  });

  router.get('/calls/:id', async (ctx) => {
    const call = await orNotFound(stores.calls.owned(ctx.state.workspace._id, ctx.params.id), 'Call not found');
    const body: CallViewResponse = { success: true, data: view(call) };
    ctx.body = body;
  });
  return router;
}
