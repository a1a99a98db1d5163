import Router from '@koa/router';
import type { Context } from 'koa';
import type { WebDeps } from '../deps';
import { sendPage } from '../layout';
import { formBody, sameOrigin } from '../forms';
import { linkLimits } from '../limits';
import { NotFoundError } from '../../shared/errors';
import { companyOfInterview } from '../interviews/link';
import type { InterviewDoc } from '../../infra/documents/interviews';
import type { Emailed } from '../../operations/candidate-opt-outs';
import { SUPPRESSION_CHANNELS } from '../../shared/suppressions/schema';
import { ConfirmOptOutPage, maskedEmail, OptedOutPage } from './pages';

/**
 * The candidate's own ways into the suppression list (docs/contact-rules.md), filed by operations/candidate-opt-outs.ts:
 * - `/u/{token}`, every email's unsubscribe link: a GET shows a confirmation and changes nothing (mail
 *   scanners follow links); a POST suppresses email for the address, the confirmation's button or a mail
 *   client's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`), which carries no cookie and no Origin;
 * - `/interview/{token}/opt-out`, the interview page's "Don't contact me again": every channel, for the
 *   candidate's email and phone, after the same confirmation.
 * A POST from another site's page is refused (`sameOrigin`); the link's token is the credential, as for the
 * interview itself, and the pages send no Referer (`Referrer-Policy`).
 */
export function suppressionRoutes({ stores, operations }: WebDeps): Router {
  const router = new Router();
  const limited = linkLimits(stores.limits);
  const { optOuts } = operations;

  const companyFor = async (emailed: Emailed) => (await companyOfInterview(stores, emailed)) ?? 'The hiring team';
  async function unsubscribing(ctx: Context): Promise<Emailed> {
    const interview = await optOuts.ofUnsubscribeLink(String(ctx.params.token));
    // An erased candidate's interview keeps no address: nothing is left to unsubscribe.
    if (!interview) throw new NotFoundError('unsubscribe link not found');
    return interview;
  }

  router.get('/u/:token', limited, async (ctx) => {
    const interview = await unsubscribing(ctx);
    const company = await companyFor(interview);
    const who = maskedEmail(interview.candidate.email);
    if (await optOuts.refused(interview, ['email'])) {
      return sendPage(
        ctx,
        200,
        <OptedOutPage
          title="You are unsubscribed"
          company={company}
          what={`${who} gets no more emails from ${company} about applications.`}
        />,
      );
    }
    sendPage(
      ctx,
      200,
      <ConfirmOptOutPage
        title="Unsubscribe"
        company={company}
        what={`Stop emails from ${company} about applications to ${who}?`}
        action={`/u/${ctx.params.token}`}
        button="Unsubscribe"
      />,
    );
  });

  router.post('/u/:token', limited, sameOrigin, formBody, async (ctx) => {
    const interview = await unsubscribing(ctx);
    await optOuts.unsubscribe(interview);
    // A mail client's one-click POST reads only the status; the confirmation's button is shown where it stands.
    if ((ctx.request.body as Record<string, unknown> | undefined)?.['List-Unsubscribe'] === 'One-Click') {
      ctx.status = 200;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Unsubscribed.';
      return;
    }
    ctx.status = 303;
    ctx.redirect(`/u/${ctx.params.token}`);
  });

  async function candidateOf(ctx: Context): Promise<{ interview: InterviewDoc; path: string }> {
    const interview = await stores.interviews.ofToken(String(ctx.params.token));
    if (!interview?.candidate.email) throw new NotFoundError('interview not found');
    return { interview, path: `/interview/${ctx.params.token}` };
  }

  router.get('/interview/:token/opt-out', limited, async (ctx) => {
    const { interview, path } = await candidateOf(ctx);
    const company = await companyFor(interview);
    if (await optOuts.refused(interview, SUPPRESSION_CHANNELS)) {
      return sendPage(
        ctx,
        200,
        <OptedOutPage title="You will not be contacted again" company={company} what={DONE(company)} back={path} />,
      );
    }
    const what =
      `${company} will not call, message or email you again about any application: not for this interview, nor for another role. ` +
      'Your answers so far stay with the company unless you ask it to delete them.';
    sendPage(
      ctx,
      200,
      <ConfirmOptOutPage
        title="Don't contact me again"
        company={company}
        what={what}
        action={`${path}/opt-out`}
        button="Don't contact me again"
      />,
    );
  });

  router.post('/interview/:token/opt-out', limited, sameOrigin, async (ctx) => {
    const { interview, path } = await candidateOf(ctx);
    await optOuts.optOut(interview, 'interview_page');
    ctx.status = 303;
    ctx.redirect(`${path}/opt-out`);
  });
  return router;
}

const DONE = (company: string) => `${company} will not call, message or email you again. You can close this page.`;
