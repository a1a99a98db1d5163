import Router from '@koa/router';
import type { ApiDeps } from '../deps';
import { handleErrors, plainFamily } from '../errors';
import { parseRawJson, readRawBody } from '../middleware';
import { verifyHubSignature, verifyVapi } from './signatures';
import { safeEqual } from '../../infra/safe-equal';
import { handleVapiMessage } from './vapi-events';
import { ForbiddenError, SignatureError } from '../../shared/errors';
import { VAPI_EVENTS_PATH, WHATSAPP_EVENTS_PATH } from '../../shared/public-urls';

/**
 * Provider callbacks. They carry no API key: each message is authenticated by the provider's signature or
 * shared secret over the exact bytes received, before anything in it is read. Without the secret configured,
 * every message is refused.
 */
export function providerRoutes(deps: ApiDeps): Router {
  const { config, operations } = deps;
  const logger = deps.logger.child({ component: 'provider-callbacks' });
  const router = new Router();
  router.use(handleErrors(plainFamily));

  router.post(VAPI_EVENTS_PATH, readRawBody(config.BODY_LIMIT), async (ctx) => {
    const secret = config.VAPI_WEBHOOK_SECRET;
    if (!secret || !verifyVapi(ctx.headers, ctx.state.rawBody, secret, Date.now())) {
      throw new SignatureError('Vapi message signature or secret is missing or wrong');
    }
    const answer = await handleVapiMessage(
      { reports: operations.reports, callBacks: operations.callBacks, callOptions: deps.vapiCallOptions, logger },
      parseRawJson(ctx.state.rawBody),
    );
    ctx.body = answer ?? { success: true };
  });

  // Meta's subscription handshake: echo hub.challenge when hub.verify_token is ours.
  router.get(WHATSAPP_EVENTS_PATH, (ctx) => {
    const token = config.WHATSAPP_VERIFY_TOKEN;
    const q = ctx.query;
    if (!token || q['hub.mode'] !== 'subscribe' || typeof q['hub.verify_token'] !== 'string' || !safeEqual(q['hub.verify_token'], token)) {
      throw new ForbiddenError('Webhook verification failed');
    }
    ctx.type = 'text/plain';
    ctx.body = String(q['hub.challenge'] ?? '');
  });

  router.post(WHATSAPP_EVENTS_PATH, readRawBody(config.BODY_LIMIT), async (ctx) => {
    const secret = config.WHATSAPP_APP_SECRET;
    if (!secret || !verifyHubSignature(ctx.headers, ctx.state.rawBody, secret)) {
      throw new SignatureError('X-Hub-Signature-256 is missing or wrong');
    }
    await operations.whatsAppEvent(parseRawJson(ctx.state.rawBody));
    ctx.body = { success: true };
  });
  return router;
}
