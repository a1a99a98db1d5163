import type { TSchema } from '@sinclair/typebox';
import { OPERATIONS } from './operation-table';
import { EVENT_BODIES, EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/schema';
import type { Operation, Response } from './operation';

/** What the reference says about the service as a whole; the operations come from operation-table.ts. */
const INFO = {
  title: 'Hiring integration API',
  version: '1.0.0',
  description:
    'AI voice calls to candidates, job-description parsing and AI interview invitations, driven by an applicant-tracking system. ' +
    'Every operation but health and provider callbacks takes the workspace API key in `x-service-api-key`. ' +
    'Call operations and job operations answer errors in different shapes, each documented per status.',
};

const REQUEST_ID = {
  'x-request-id': {
    description: 'Identifies the request in the service log; echoed when the request carried one.',
    schema: { type: 'string' },
  },
};

type Json = Record<string, unknown>;

/**
 * A TypeBox schema as plain JSON Schema 2020-12 (OpenAPI 3.1's dialect): TypeBox's own symbols fall away
 * in the copy, `errorMessage` (our validator's wording) is dropped, a property with a default is not
 * required, and a schema with an `$id` becomes a reference to components.schemas.
 */
function toJsonSchema(schema: TSchema, components: Record<string, Json>): Json {
  const walk = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (typeof node !== 'object' || node === null) return node;
    const { errorMessage: _dropped, $id, ...rest } = node as Json;
    const copy = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v, false)]));
    // The validator fills a default before it checks, so a property with a default may be left out.
    if (Array.isArray(copy.required) && typeof rest.properties === 'object' && rest.properties !== null) {
      const properties = rest.properties as Record<string, Json>;
      copy.required = copy.required.filter((name) => !(name in properties && 'default' in properties[name]));
      if ((copy.required as unknown[]).length === 0) delete copy.required;
    }
    if (typeof $id === 'string' && !top) {
      components[$id] ??= walk(node, true) as Json;
      return { $ref: `#/components/schemas/${$id}` };
    }
    return copy;
  };
  return walk(JSON.parse(JSON.stringify(schema)), false) as Json;
}

function response(r: Response, components: Record<string, Json>): Json {
  const headers = {
    ...REQUEST_ID,
    ...Object.fromEntries(
      Object.entries(r.headers ?? {}).map(([k, h]) => [k, { description: h.description, schema: toJsonSchema(h.schema, components) }]),
    ),
  };
  if (!r.schema) return { description: r.description, headers };
  const media = { schema: toJsonSchema(r.schema, components), ...(r.example === undefined ? {} : { example: r.example }) };
  const types = Array.isArray(r.contentType) ? r.contentType : [r.contentType ?? 'application/json'];
  return { description: r.description, headers, content: Object.fromEntries(types.map((t) => [t, media])) };
}

function operation(op: Operation, components: Record<string, Json>): Json {
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.security === 'apiKey' ? [{ apiKey: [] }] : op.security === 'partnerKey' ? [{ partnerKey: [] }] : [],
    ...(op.parameters
      ? {
          parameters: op.parameters.map((p) => ({
            name: p.name,
            in: p.in,
            required: p.required,
            description: p.description,
            schema: toJsonSchema(p.schema, components),
          })),
        }
      : {}),
    ...(op.body
      ? {
          requestBody: {
            required: !op.body.optional,
            content: { 'application/json': { schema: toJsonSchema(op.body.schema, components), example: op.body.example } },
          },
        }
      : {}),
    responses: Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, response(r, components)])),
  };
}

const SIGNATURE_HEADERS = [
  ['webhook-id', 'The event id: the same on every try, so a receiver can drop a repeat.'],
  ['webhook-timestamp', 'When this try was sent, in Unix seconds; refuse one far from now.'],
  [
    'webhook-signature',
    'Space-separated `v1,<base64>` signatures: HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed by the base64-decoded secret after `whsec_`, one per valid secret. Verify with any Standard Webhooks library.',
  ],
] as const;

/** What the service POSTs to webhook endpoints, one entry per event type (OpenAPI 3.1's `webhooks`). */
function webhooks(components: Record<string, Json>): Json {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `${type.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())}Event`,
          summary: type,
          description: EVENT_DESCRIPTIONS[type],
          tags: ['Webhooks'],
          parameters: SIGNATURE_HEADERS.map(([name, description]) => ({
            name,
            in: 'header',
            required: true,
            description,
            schema: { type: 'string' },
          })),
          requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(EVENT_BODIES[type], components) } } },
          responses: {
            '200': { description: 'Any 2xx within 10 s: delivered.' },
            '410': { description: 'Gone: the endpoint is disabled and nothing more is sent to it.' },
          },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document of the API, generated from the operation table. */
export function openApiDocument(): Json {
  const components: Record<string, Json> = {};
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) paths[op.path] = { ...paths[op.path], [op.method]: operation(op, components) };
  return {
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: '/' }],
    tags: [
      { name: 'Calls', description: 'Campaigns, AI voice calls and their status.' },
      { name: 'Interviews', description: 'AI interview invitations and their status.' },
      { name: 'Projects', description: 'Campaign and interview projects, with their calls or interviews counted by status.' },
      { name: 'AI', description: 'Language-model operations, rate-limited per workspace.' },
      { name: 'Workspace', description: 'The workspace behind an API key.' },
      {
        name: 'Suppressions',
        description:
          'The suppression list: phones and emails not to be called, messaged or emailed again, on every channel the entry names.',
      },
      { name: 'Webhooks', description: 'Signed events about calls and interviews, POSTed to endpoints the workspace registers.' },
      { name: 'Health', description: 'Liveness and readiness, for load balancers and orchestrators.' },
      { name: 'Provider callbacks', description: 'Called by Vapi and Meta, not by an ATS; each is signed.' },
      {
        name: 'ATS partners',
        description:
          'What a workspace sets up for Greenhouse or Ashby to run its interviews and phone screens as a stage: the keys its ATS presents, the Ashby API key results are reported with, and its tests (docs/ats/).',
      },
      {
        name: 'ATS doors',
        description:
          "Called by Greenhouse and Ashby, not by an ATS's own code: each ATS's assessment partner contract, as it publishes it, under `/partners/<ats>/`, with the key the workspace made for it (HTTP Basic).",
      },
      { name: 'Reference', description: 'This document and the page that renders it.' },
    ],
    paths,
    webhooks: webhooks(components),
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-service-api-key', description: "The workspace's API key." },
        partnerKey: {
          type: 'http',
          scheme: 'basic',
          description:
            'A key the workspace made for that ATS (`POST /api/public/v1/partners/{ats}/credentials`) as the user name, with an empty password.',
        },
      },
    },
  };
}
