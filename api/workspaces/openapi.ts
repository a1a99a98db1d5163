import { WorkspaceResponse } from '../../shared/workspaces/schema';
import { callErrors } from '../openapi/error-responses';
import { EXAMPLES } from '../openapi/examples';
import type { Operation } from '../openapi/operation';
import { V1 } from '../openapi/operation-builders';

/** The workspace operations of the reference (api/openapi/operations.ts), in the call family's error shapes. */

export const WORKSPACE_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: `${V1}/workspace`,
    operationId: 'getWorkspace',
    summary: 'The workspace of the API key, with its sender profile',
    tag: 'Workspace',
    security: 'apiKey',
    responses: {
      200: { description: 'The workspace.', schema: WorkspaceResponse, example: EXAMPLES.workspace },
      ...callErrors(401, 500, 503),
    },
  },
];
