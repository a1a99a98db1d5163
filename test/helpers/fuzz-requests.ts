import fc from 'fast-check';
import type { TObject } from '@sinclair/typebox';
import { CallInitiateRequest, CampaignRequest } from '../../shared/calls/schema';
import { InviteRequest } from '../../shared/interviews/schema';
import { GenerateQuestionsRequest, GenerateScriptRequest, ParseJdRequest } from '../../shared/ai/schema';
import { VAPI_EVENTS_PATH, WHATSAPP_EVENTS_PATH } from '../../shared/public-urls';
import { endOfCallReport, hubSignature, statusWebhook, vapiHmacHeaders } from './provider-wire';
import { inviteBody, inviteCandidate } from './invite';

/** Endpoints, generators and body mutations for test/api/fuzz.test.ts. */
export const SEED = 20261122;
export const APP_SECRET = 'fuzz-app-secret';
export const VAPI_SECRET = 'fuzz-vapi-secret';
export const JOB = 'job-fuzz';

type Family = 'calls' | 'jobs' | 'plain';
export interface Endpoint {
  method: string;
  path: string;
  family: Family;
  /** A valid body, which the generators bend. */
  body?: unknown;
  /** Request fields the operation requires (from its TypeBox schema). */
  required?: readonly string[];
  /** Provider callbacks: signed over the exact bytes, no API key. */
  sign?: (raw: string) => Record<string, string>;
  /** call/initiate and campaigns refuse fields their schema does not name. */
  strict?: boolean;
}

/** The fields a request must carry: required by its TypeBox schema and without a default. */
const mustHave = (schema: TObject) => (schema.required ?? []).filter((f) => !('default' in schema.properties[f]));

const callBody = {
  ats_job_id: JOB,
  first_message: 'Hi {{candidate_first_name}}',
  instructions: 'Ask about availability.',
  candidates: [{ id: 'f1', name: 'Fuzz Candidate', email: 'f1@example.com', phone: '+14155550199' }],
};
const brief = { job_title: 'Data Engineer', job_description: 'Build pipelines in Python and SQL. 3+ years. Remote, full time.' };

export const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/api/public/v1/campaigns',
    family: 'calls',
    body: { ats_job_id: JOB, name: 'Fuzz' },
    required: mustHave(CampaignRequest),
    strict: true,
  },
  {
    method: 'POST',
    path: '/api/public/v1/call/initiate',
    family: 'calls',
    body: callBody,
    required: mustHave(CallInitiateRequest),
    strict: true,
  },
  { method: 'GET', path: '/api/public/v1/calls/call_0123456789abcdef01234567', family: 'calls' },
  {
    method: 'POST',
    path: '/api/public/v1/interview/invite',
    family: 'jobs',
    body: inviteBody([inviteCandidate(1)], { ats_job_id: 'job-fuzz-invite' }),
    required: mustHave(InviteRequest),
  },
  { method: 'GET', path: '/api/public/v1/interviews/int_0123456789abcdef01234567', family: 'jobs' },
  {
    method: 'POST',
    path: '/api/public/v1/ai/parse-jd',
    family: 'jobs',
    body: { job_description: brief.job_description },
    required: mustHave(ParseJdRequest),
  },
  { method: 'POST', path: '/ai/generate-questions', family: 'jobs', body: brief, required: mustHave(GenerateQuestionsRequest) },
  { method: 'POST', path: '/api/public/v1/ai/generate-script', family: 'jobs', body: brief, required: mustHave(GenerateScriptRequest) },
  { method: 'GET', path: '/api/public/v1/workspace', family: 'plain' },
  { method: 'GET', path: '/healthz', family: 'plain' },
  {
    method: 'POST',
    path: VAPI_EVENTS_PATH,
    family: 'plain',
    body: endOfCallReport({ callId: 'call_fuzz', attempt: 1, endedReason: 'assistant-ended-call' }),
    sign: (raw) => vapiHmacHeaders(raw, VAPI_SECRET),
  },
  {
    method: 'POST',
    path: WHATSAPP_EVENTS_PATH,
    family: 'plain',
    body: statusWebhook('wamid.fuzz', 'delivered'),
    sign: (raw) => hubSignature(raw, APP_SECRET),
  },
];

/** Statuses the README documents for a client's requests (no 5xx: nothing here is an outage). */
export const DOCUMENTED = new Set([200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 422, 429]);

export interface Sent {
  endpoint: Endpoint;
  method: string;
  path: string;
  raw?: string;
  headers: Record<string, string>;
}

export const wrongType = fc.oneof(
  fc.boolean(),
  fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { minKeys: 1, maxKeys: 2 }),
);
export const queryString = fc
  .option(fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { maxLength: 3 }), { nil: undefined })
  .map((q) => (q && q.length > 0 ? `?${q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : ''));
export const contentType = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
);
export const requestId = fc.option(
  fc.string({ maxLength: 200 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  { nil: undefined },
);

/** Every path into a JSON value, for mutating one spot of a valid body. */
function paths(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(v)) return [at, ...v.flatMap((x, i) => paths(x, [...at, i]))];
  if (v && typeof v === 'object') return [at, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]))];
  return [at];
}

export function mutate(body: unknown, pick: number, op: 'delete' | 'replace' | 'extra', value: unknown): unknown {
  const copy = structuredClone(body);
  const all = paths(copy).filter((p) => p.length > 0);
  if (all.length === 0) return value;
  const path = all[pick % all.length];
  const parent = path.slice(0, -1).reduce<any>((o, k) => o[k], copy);
  const key = path[path.length - 1];
  if (op === 'delete' && Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (op === 'delete') delete parent[key];
  else if (op === 'replace') parent[key] = value;
  else if (parent && typeof parent === 'object' && !Array.isArray(parent)) parent[`x_fuzz_${String(key)}`] = value;
  return copy;
}

export function withAuth(endpoint: Endpoint, raw: string, headers: Record<string, string>, key: string, signed: boolean): Sent['headers'] {
  const auth = endpoint.sign ? (signed ? endpoint.sign(raw) : {}) : { 'x-service-api-key': key };
  return { ...auth, ...headers };
}
