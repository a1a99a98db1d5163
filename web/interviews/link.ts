import type { Context } from 'koa';
import type { InterviewDoc } from '../../infra/documents/interviews';
import { companyOf } from '../../infra/documents/projects';
import { ownEmailFrom } from '../../infra/documents/workspaces';
import { NotFoundError } from '../../shared/errors';
import type { WebDeps } from '../deps';
import type { InterviewFrame } from './pages';

/** The hiring company an interview's pages name: the project's, or the workspace's. */
export async function companyOfInterview(
  stores: WebDeps['stores'],
  interview: Pick<InterviewDoc, 'project_id' | 'workspace_id'>,
): Promise<string | null> {
  const [project, workspace] = await Promise.all([
    stores.projects.get(interview.project_id),
    stores.workspaces.get(interview.workspace_id),
  ]);
  return companyOf(project, workspace);
}

/** The interview a link opens, and what its pages show of the job (web/interviews/routes.tsx). */
export function interviewLink({ stores, config }: Pick<WebDeps, 'stores' | 'config'>) {
  return {
    /** The interview of the link, and the link's own path, which every form posts to and redirects back to. */
    async load(ctx: Context): Promise<{ interview: InterviewDoc; path: string }> {
      const token = String(ctx.params.token);
      const interview = await stores.interviews.ofToken(token);
      // An erased candidate's link opens nothing: there is no one left to take the interview.
      if (!interview || interview.erased_at) throw new NotFoundError('interview not found');
      return { interview, path: `/interview/${token}` };
    },

    /** What a rendered page shows of the job: read only when a page is rendered, not for a redirect. */
    async frameOf(interview: InterviewDoc, path: string): Promise<InterviewFrame> {
      const [project, workspace] = await Promise.all([
        stores.projects.get(interview.project_id),
        stores.workspaces.get(interview.workspace_id),
      ]);
      const company = companyOf(project, workspace) ?? 'the company';
      const sender = workspace ? `${workspace.sender.first_name} ${workspace.sender.last_name}`.trim() : '';
      return {
        jobTitle: project?.job?.title ?? project?.name ?? 'Interview',
        company,
        // Where to write about one's data: the workspace's contact_email, else the address its invitations came
        // from (its own sender where the operator gave it one, the service's otherwise).
        contact: `${sender ? `${sender} at ${company}` : company}, ${workspace?.settings?.contact_email ?? ownEmailFrom(workspace)?.email ?? config.EMAIL_FROM}`,
        path,
        retentionDays: workspace?.settings?.retention_days ?? null,
        aiDeclined: Boolean(interview.ai_assessment_declined_at),
        live: interview.interview_mode === 'live' && !interview.live_switched_at,
      };
    },
  };
}
