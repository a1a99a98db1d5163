import Router from '@koa/router';
import type { Context } from 'koa';
import type { WebDeps } from '../deps';
import { sendPage } from '../layout';
import { formBody, sameOrigin } from '../forms';
import { linkLimits } from '../limits';
import { NotFoundError } from '../../shared/errors';
import { keyedId } from '../../infra/ids';
import { normaliseEmail } from '../../infra/people';
import { companyOf } from '../../infra/documents/projects';
import type { InterviewDoc } from '../../infra/documents/interviews';
import { SUPPRESSION_CHANNELS } from '../../shared/suppressions/schema';
import { ConfirmOptOutPage, maskedEmail, OptedOutPage } from './pages';

/**
 * The candidate's own ways into the suppression list (docs/contact-rules.md), filed through the one filing
 * (operations/suppressions.ts):
 * - `/u/{token}`, every email's unsubscribe link: a GET shows a confirmation and changes nothing (mail
 *   scanners follow links); a POST suppresses email for the address, the confirmation's button or a mail
 *   client's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`), which carries no cookie and no Origin;
 * - `/interview/{token}/opt-out`, the interview page's "Don't contact me again": every channel, for the
 *   candidate's email and phone, after the same confirmation.
 * A POST from another site's page is refused (`sameOrigin`); the link's token is the credential, as for the
 * interview itself, and the pages send no Referer (`Referrer-Policy`).
 */
export function suppressionRoutes({ stores, operations, logger }: WebDeps): Router {
  const router = new Router();
  const limited = linkLimits(stores.limits);
  const { interviews, suppressions } = stores;

  async function companyOfInterview(interview: InterviewDoc): Promise<string> {
    const [project, workspace] = await Promise.all([
      stores.projects.get(interview.project_id),
      stores.workspaces.get(interview.workspace_id),
    ]);
    return companyOf(project, workspace) ?? 'The hiring team';
  }
  async function unsubscribing(ctx: Context): Promise<InterviewDoc> {
    const id = await stores.signedTokens.unsubscribeLinks.interviewOf(String(ctx.params.token));
    const interview = id ? await interviews.get(id) : null;
    // An erased candidate's interview keeps no address: nothing is left to unsubscribe.
    if (!interview?.candidate.email) throw new NotFoundError('unsubscribe link not found');
    return interview;
  }
  /** Whether the list already refuses every one of `channels` to the candidate. */
  async function refused(interview: InterviewDoc, channels: readonly string[]): Promise<boolean> {
    const workspace = await stores.workspaces.get(interview.workspace_id);
    const now = await suppressions.channelsFor(workspace, { email: interview.candidate.email, phone: interview.candidate.phone });
    return channels.every((c) => now.has(c as never));
  }

  router.get('/u/:token', limited, async (ctx) => {
    const interview = await unsubscribing(ctx);
    const company = await companyOfInterview(interview);
    const who = maskedEmail(interview.candidate.email);
    if (await refused(interview, ['email'])) {
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
    const email = normaliseEmail(interview.candidate.email);
    // One entry per address and workspace, however often the link is used.
    await operations.suppressions.file({
      id: await suppressions.emailLinkEntryId(interview.workspace_id, email),
      workspaceId: interview.workspace_id,
      email,
      channels: ['email'],
      source: 'email_link',
      reason: 'Unsubscribe link in an email',
    });
    logger.info({ interviewId: interview._id }, 'email address unsubscribed by its link');
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
    const interview = await interviews.ofToken(String(ctx.params.token));
    if (!interview?.candidate.email) throw new NotFoundError('interview not found');
    return { interview, path: `/interview/${ctx.params.token}` };
  }

  router.get('/interview/:token/opt-out', limited, async (ctx) => {
    const { interview, path } = await candidateOf(ctx);
    const company = await companyOfInterview(interview);
    if (await refused(interview, SUPPRESSION_CHANNELS)) {
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
    await operations.suppressions.file({
      id: keyedId('sup', interview.workspace_id, 'interview_page', interview._id),
      workspaceId: interview.workspace_id,
      email: interview.candidate.email,
      phone: interview.candidate.phone,
      channels: SUPPRESSION_CHANNELS,
      source: 'interview_page',
      reason: 'The candidate\'s "Don\'t contact me again" on the interview page',
    });
    logger.info({ interviewId: interview._id }, 'candidate opted out on the interview page');
    ctx.status = 303;
    ctx.redirect(`${path}/opt-out`);
  });
  return router;
}

const DONE = (company: string) => `${company} will not call, message or email you again. You can close this page.`;
