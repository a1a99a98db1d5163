import { WorkspaceResponse, WorkspaceUpdateRequest } from '../../shared/workspaces/schema';
import { callErrors } from '../openapi/error-responses';
import { EXAMPLES } from '../openapi/examples';
import type { Operation } from '../openapi/operation';
import { V1 } from '../openapi/operation-builders';

/** The workspace operations of the reference (api/openapi/operation-table.ts), in the call family's error shapes. */

export const WORKSPACE_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: `${V1}/workspace`,
    operationId: 'getWorkspace',
    summary: 'The workspace of the API key, with its sender profile and contact settings',
    tag: 'Workspace',
    security: 'apiKey',
    responses: {
      200: { description: 'The workspace.', schema: WorkspaceResponse, example: EXAMPLES.workspace },
      ...callErrors(401, 500, 503),
    },
  },
  {
    method: 'patch',
    path: `${V1}/workspace`,
    operationId: 'updateWorkspace',
    summary: "Set the workspace's default time zone and calling window",
    description:
      "The fields given change, the others stay. The calling window holds every dial and WhatsApp message to the candidate's local time (every one of the candidate's zones), including schedule_at, retries and the fallback; each is checked at its moment, so the change holds for calls already waiting (docs/contact-rules.md).",
    tag: 'Workspace',
    security: 'apiKey',
    body: {
      schema: WorkspaceUpdateRequest,
      example: { default_timezone: 'America/Chicago', calling_window: { start: '08:00', end: '21:00' } },
    },
    responses: {
      200: { description: 'The workspace with its settings as they are now.', schema: WorkspaceResponse },
      ...callErrors(400, 401, 413, 500, 503),
    },
  },
];
