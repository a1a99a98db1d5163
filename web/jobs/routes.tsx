import Router from '@koa/router';
import { jobUrl } from '../../shared/public-urls';
import type { WebDeps } from '../deps';
import { sendPage } from '../layout';
import { NotFoundError } from '../../shared/errors';
import { companyOf } from '../../infra/documents/projects';
import { JobPage } from './page';
import { perAddress } from '../limits';

/** The public job page at `job_url`: an interview project's job, read by its exact `_id`. */
export function jobRoutes({ stores, config }: WebDeps): Router {
  const router = new Router();
  router.get('/jobs/:projectId', perAddress(stores.limits.pagesPerIp, 'pages'), async (ctx) => {
    const project = await stores.projects.get(ctx.params.projectId);
    // Campaign projects have no job to show: they are the same 404 as an unknown id.
    if (!project?.job) throw new NotFoundError('job not found');
    const workspace = await stores.workspaces.get(project.workspace_id);
    if (!workspace) throw new NotFoundError('job not found');
    const model = {
      job: project.job,
      // A workspace always has its sender's company, so there is one.
      company: companyOf(project, workspace)!,
      url: jobUrl(config.PUBLIC_BASE_URL, project._id),
      postedAt: project.created_at,
    };
    sendPage(ctx, 200, <JobPage model={model} />);
  });
  return router;
}
