import { liveConversationsAtOnce } from '../../infra/documents/workspaces';
import type Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { callFamily } from '../errors';
import { publicRouter } from '../public-router';
import { compileValidator } from '../../shared/validation';
import {
  callBackLimits,
  callDisclosureOf,
  callingWindowOf,
  defaultTimezone,
  ownEmailFrom,
  ownNumber,
  type WorkspaceDoc,
} from '../../infra/documents/workspaces';
import { formatEmailFrom } from '../../shared/workspaces/numbers';
import type { Config } from '../../infra/config';
import { WorkspaceUpdateRequest, workspaceUpdateRules, type WorkspaceResponse } from '../../shared/workspaces/schema';

const validateUpdate = compileValidator(WorkspaceUpdateRequest, workspaceUpdateRules);

/**
 * GET /api/public/v1/workspace: which workspace a key belongs to, its sender profile and its contact settings;
 * PATCH changes those settings. Every call's workflow reads them at each dial and message, so a change holds
 * for calls already waiting.
 */
export function workspaceRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: true });
  router.get('/workspace', (ctx) => {
    ctx.body = workspaceBody(ctx.state.workspace, deps.config);
  });
  router.patch('/workspace', async (ctx) => {
    const ws = ctx.state.workspace;
    const update = validateUpdate(ctx.request.body);
    await deps.stores.workspaces.updateSettings(ws._id, update);
    ctx.body = workspaceBody({ ...ws, settings: { ...ws.settings, ...update } }, deps.config);
  });
  return router;
}

function workspaceBody(ws: Readonly<WorkspaceDoc>, config: Config): WorkspaceResponse {
  return {
    success: true,
    data: {
      workspace_id: ws._id,
      name: ws.name,
      sender: { first_name: ws.sender.first_name, last_name: ws.sender.last_name, company: ws.sender.company },
      settings: {
        default_timezone: defaultTimezone(ws),
        calling_window: callingWindowOf(ws),
        call_disclosure: callDisclosureOf(ws),
        retention_days: ws.settings?.retention_days ?? null,
        contact_email: ws.settings?.contact_email ?? null,
        voice_consent_required: ws.settings?.voice_consent_required ?? false,
        max_dials_per_phone_per_day: ws.settings?.max_dials_per_phone_per_day ?? null,
        call_back_days: callBackLimits(ws).days,
        call_backs_per_day: callBackLimits(ws).perDay,
        live_conversations_at_once: liveConversationsAtOnce(ws),
        email_call_links: ws.settings?.email_call_links ?? false,
      },
      numbers: {
        voice: ownNumber(ws, 'voice') ?? config.VAPI_PHONE_NUMBER_ID ?? null,
        whatsapp: ownNumber(ws, 'whatsapp') ?? config.WHATSAPP_PHONE_NUMBER_ID ?? null,
        email_from: formatEmailFrom(ownEmailFrom(ws) ?? { email: config.EMAIL_FROM, name: config.EMAIL_FROM_NAME }),
      },
    },
  };
}
