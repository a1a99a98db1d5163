import Router from '@koa/router';
import type { WebDeps } from './deps';
import { assetRoutes } from './assets/routes';
import { pageHeaders } from './headers';
import { renderPageErrors } from './page-errors';
import { jobRoutes } from './jobs/routes';
import { interviewRoutes } from './interviews/routes';
import { liveTicketRoutes } from './interviews/live-routes';
import { sessionRoutes } from './sessions/routes';
import { projectRoutes } from './projects/routes';
import { suppressionRoutes } from './suppressions/routes';
import { callLinkRoutes } from './calls/routes';

/**
 * The pages people open from the links the API hands out, mounted beside the API on the same server. Each
 * page answers with the pages' headers and, on failure, an HTML page (never the API's JSON bodies).
 */
export function pageRoutes(deps: WebDeps): Router[] {
  const pages = new Router();
  pages.use(pageHeaders(deps.config), renderPageErrors);
  for (const room of [
    jobRoutes(deps),
    interviewRoutes(deps),
    liveTicketRoutes(deps),
    sessionRoutes(deps),
    projectRoutes(deps),
    suppressionRoutes(deps),
    callLinkRoutes(deps),
  ])
    pages.use(room.routes(), room.allowedMethods());
  return [assetRoutes(), pages];
}

export { liveSockets } from './interviews/live-socket';
