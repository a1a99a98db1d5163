import type { TSchema } from '@sinclair/typebox';

/** The shape of one entry of the operation table (operation-table.ts). */

export interface Response {
  description: string;
  schema?: TSchema;
  /** application/json unless given; several when the body is one of them (a recording's media types). */
  contentType?: string | string[];
  headers?: Record<string, { description: string; schema: TSchema }>;
  /** Shown in the reference; checked against `schema` by test/api/openapi.test.ts. */
  example?: unknown;
}

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag:
    | 'Calls'
    | 'Interviews'
    | 'Projects'
    | 'AI'
    | 'Workspace'
    | 'Health'
    | 'Provider callbacks'
    | 'Reference'
    | 'Webhooks'
    | 'Suppressions'
    | 'ATS partners'
    | 'ATS doors';
  /**
   * `apiKey`: x-service-api-key; `partnerKey`: a key made for an ATS, as HTTP Basic (its door); `none`: open
   * (health, provider callbacks, which are signed instead).
   */
  security: 'apiKey' | 'partnerKey' | 'none';
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; required: boolean; description: string; schema: TSchema }>;
  /** `optional`: a request may come without a body (as `{}`). */
  body?: { schema: TSchema; example: unknown; description?: string; optional?: boolean };
  responses: Record<number, Response>;
}
