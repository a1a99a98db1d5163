import Router from '@koa/router';
import type { Context } from 'koa';
import type { WebDeps } from '../deps';
import { MessagePage, sendPage } from '../layout';
import { formBody, sameOrigin } from '../forms';
import { linkLimits } from '../limits';
import { NotFoundError } from '../../shared/errors';
import type { CallDoc } from '../../infra/documents/calls';
import type { LinkChoiceOutcome } from '../../operations/call-candidate-links';
import { CANDIDATE_REFUSALS, localTime, type CandidateRefusal } from '../../shared/calls/candidate-link';
import { ConfirmOptOutPage, OptedOutPage } from '../suppressions/pages';
import { CallLinkPage } from './pages';

/** What the page says after a choice, by what came of it: the redirect carries only these names. */
const DONE = {
  ringing: 'We are calling you now: your phone rings within 30 seconds.',
  moved: 'Done: we will call you at the time you picked.',
  declined: 'Done: we will not call you about this role.',
  answered: 'Thank you: your answers are sent.',
} as const;
const REFUSED: Record<CandidateRefusal, string> = {
  outside_calling_window: 'We cannot call you at this hour.',
  under_way: 'We are calling you right now, so this cannot change until the call ends.',
  ended: 'This call has ended.',
  too_many_moves: 'This call has been moved as often as it can be.',
  not_offered: 'This is not offered for this call.',
  bad_time: 'That time cannot be picked: choose one from the list.',
  form_only: 'We will not call again: you can still answer in writing below.',
};

/**
 * The candidate's own page of their call (docs/calls.md), at the link its WhatsApp messages carry:
 * `/call/{token}`. Each choice is a form that posts back and is answered with a redirect to the one page,
 * which says what came of it (so a reload never asks twice). The link's token is the credential; forms from
 * another site are refused (`sameOrigin`), and requests are limited per link and per address as the
 * interview's are. The use cases are operations/call-candidate-links.ts.
 */
export function callLinkRoutes({ stores, operations }: WebDeps): Router {
  const router = new Router();
  const limited = linkLimits(stores.limits);
  const links = operations.callLinks;

  async function load(ctx: Context): Promise<{ call: CallDoc; path: string }> {
    const token = String(ctx.params.token);
    const call = await links.open(token);
    // A wrong token and an erased candidate's link look the same: nothing of anyone.
    if (!call) throw new NotFoundError('call not found');
    return { call, path: `/call/${token}` };
  }

  /** Back to the page, saying what came of the choice. */
  function answered(ctx: Context, path: string, outcome: LinkChoiceOutcome, done: keyof typeof DONE): void {
    if ('unanswered' in outcome) {
      return sendPage(
        ctx,
        503,
        <MessagePage title="We have not heard back yet">
          <p>
            Your call did not answer in time. What you chose may still go through: open your call again in a minute to see where it stands.
          </p>
          <p>
            <a href={path}>Back to your call</a>
          </p>
        </MessagePage>,
      );
    }
    const params = new URLSearchParams();
    if ('taken' in outcome && outcome.taken) params.set('done', done);
    else if ('refused' in outcome) {
      params.set('refused', outcome.refused);
      if (outcome.earliest !== undefined) params.set('earliest', String(outcome.earliest));
    }
    ctx.status = 303;
    ctx.redirect(`${path}?${params}`);
  }

  router.get('/call/:token', limited, async (ctx) => {
    const { call, path } = await load(ctx);
    const view = await links.view(call);
    sendPage(ctx, 200, <CallLinkPage view={view} path={path} notice={noticeOf(ctx.query, view.zone)} />);
  });

  router.post('/call/:token/now', limited, sameOrigin, async (ctx) => {
    const { call, path } = await load(ctx);
    answered(ctx, path, await links.callNow(call), 'ringing');
  });

  router.post('/call/:token/time', limited, sameOrigin, formBody, async (ctx) => {
    const { call, path } = await load(ctx);
    const at = Number((ctx.request.body as Record<string, unknown> | undefined)?.at);
    answered(ctx, path, Number.isSafeInteger(at) ? await links.move(call, at) : { taken: false, refused: 'bad_time' }, 'moved');
  });

  router.post('/call/:token/decline', limited, sameOrigin, async (ctx) => {
    const { call, path } = await load(ctx);
    answered(ctx, path, await links.decline(call), 'declined');
  });

  router.post('/call/:token/form', limited, sameOrigin, formBody, async (ctx) => {
    const { call, path } = await load(ctx);
    const outcome = await links.answerInWriting(call, (ctx.request.body ?? {}) as Record<string, unknown>);
    if ('invalid' in outcome)
      return sendPage(ctx, 422, <CallLinkPage view={await links.view(call)} path={path} errors={outcome.invalid} />);
    answered(ctx, path, outcome, 'answered');
  });

  // "Stop contacting me": a confirmation first (link previews open every link), then the POST files it.
  router.get('/call/:token/stop', limited, async (ctx) => {
    const { call, path } = await load(ctx);
    const { company } = await links.view(call);
    if (call.status === 'cancelled' && call.cancel_reason === 'opted_out')
      return sendPage(ctx, 200, <OptedOutPage title="You will not be contacted again" company={company} what={stopped(company)} />);
    const what = `${company} will not call, message or email you again about any application: not for this role, nor for another.`;
    sendPage(
      ctx,
      200,
      <ConfirmOptOutPage title="Stop contacting me" company={company} what={what} action={`${path}/stop`} button="Stop contacting me" />,
    );
  });

  router.post('/call/:token/stop', limited, sameOrigin, async (ctx) => {
    const { call } = await load(ctx);
    await links.stop(call);
    const { company } = await links.view(call);
    sendPage(ctx, 200, <OptedOutPage title="You will not be contacted again" company={company} what={stopped(company)} />);
  });

  return router;
}

const stopped = (company: string) => `${company} will not call, message or email you again. You can close this page.`;

/** The notice a redirect asked for, from its fixed names only: nothing the query says is shown as it is. */
function noticeOf(query: Record<string, unknown>, zone: string): string | null {
  if (typeof query.done === 'string' && query.done in DONE) return DONE[query.done as keyof typeof DONE];
  if (typeof query.refused !== 'string' || !(CANDIDATE_REFUSALS as readonly string[]).includes(query.refused)) return null;
  const earliest = Number(query.earliest);
  const when =
    Number.isSafeInteger(earliest) && earliest > 0 ? ` The earliest we can call is ${localTime(earliest, zone)} (${zone} time).` : '';
  return REFUSED[query.refused as CandidateRefusal] + when;
}
