import Router from '@koa/router';
import type { LiveRefusal } from '../../operations/live-interviews';
import type { WebDeps } from '../deps';
import { sameOrigin } from '../forms';
import { linkLimits } from '../limits';
import { interviewLink } from './link';

/** What the page is told when a conversation cannot open (and the HTTP status of the ticket's refusal). */
export const REFUSALS: Record<LiveRefusal | 'invalid_ticket', { status: number; message: string }> = {
  not_live: { status: 409, message: 'This interview is answered on the page, not in a conversation.' },
  no_consent: { status: 409, message: 'Please agree to the recording and the assessment before the conversation starts.' },
  closed: { status: 409, message: 'This interview is no longer open.' },
  busy: { status: 503, message: 'Too many conversations are under way. Please try again in a minute.' },
  workspace_busy: { status: 503, message: "Too many of this company's conversations are under way. Please try again in a minute." },
  invalid_ticket: { status: 403, message: 'This conversation needs a new ticket from its page.' },
};
/** `POST /interview/:token/live/ticket`: after consent, the ticket that opens the conversation's socket for a minute; `…/live/switch`: written answers instead. */
export function liveTicketRoutes({ stores, config, operations, now }: WebDeps): Router {
  const router = new Router();
  const { load } = interviewLink({ stores, config });
  router.post('/interview/:token/live/ticket', linkLimits(stores.limits), sameOrigin, async (ctx) => {
    const { interview, path } = await load(ctx);
    const outcome = await operations.liveInterviews.ticket(interview, now());
    if ('refused' in outcome) {
      const { status, message } = REFUSALS[outcome.refused];
      ctx.status = status;
      if (outcome.refused === 'busy') ctx.set('Retry-After', '60');
      ctx.body = { error: outcome.refused, message };
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ticket: outcome.ticket, expires_at: outcome.expires_at.toISOString(), socket_path: `${path}/live` };
  });
  // "Answer in writing instead": a plain form, so it works without the script or a microphone; back to the page.
  router.post('/interview/:token/live/switch', linkLimits(stores.limits), sameOrigin, async (ctx) => {
    const { interview, path } = await load(ctx);
    await operations.interviewSteps.switchToText(interview, now());
    ctx.status = 303;
    ctx.redirect(path);
  });
  return router;
}
