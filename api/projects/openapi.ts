import { ProjectListQuery, ProjectListResponse, ProjectViewResponse } from '../../shared/lists/schema';
import { callErrors } from '../openapi/error-responses';
import { EXAMPLES } from '../openapi/examples';
import type { Operation } from '../openapi/operation';
import { id, listOperation, V1 } from '../openapi/operation-builders';

/** The project operations of the reference (api/openapi/operation-table.ts), in the call family's error shapes. */

export const PROJECT_OPERATIONS: Operation[] = [
  listOperation(
    'projects',
    'listProjects',
    "The workspace's projects, newest first, or the change feed of projects",
    'Projects',
    ProjectListQuery,
    ProjectListResponse,
    callErrors(400, 401, 429, 500, 503),
  ),
  {
    method: 'get',
    path: `${V1}/projects/{id}`,
    operationId: 'getProject',
    summary: 'A project: its job, kind, URLs and its calls or interviews counted by status',
    tag: 'Projects',
    security: 'apiKey',
    parameters: id('The project id from campaigns, call/initiate or interview/invite.'),
    responses: {
      200: { description: 'The project.', schema: ProjectViewResponse, example: EXAMPLES.project },
      ...callErrors(401, 404, 500, 503),
    },
  },
];
