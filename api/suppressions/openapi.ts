import {
  SuppressionCreateRequest,
  SuppressionListQuery,
  SuppressionListResponse,
  SuppressionResponse,
} from '../../shared/suppressions/schema';
import { callErrors } from '../openapi/error-responses';
import type { Operation } from '../openapi/operation';
import { id, queryParameters, V1 } from '../openapi/operation-builders';

/** The suppression list's operations of the reference (api/openapi/operation-table.ts), in the call family's error shapes. */

const ENTRY_EXAMPLE = {
  id: 'sup_3c2b1a09f8e7d6c5b4a39281',
  phone: '+14155550123',
  email: 'jane.doe@example.com',
  channels: ['voice', 'whatsapp', 'email'],
  source: 'api',
  reason: 'Asked by phone not to be contacted again',
  created_at: '2026-11-25T09:00:00.000Z',
};

const EFFECTS =
  'An entry is in force from its answer, in this workspace: call/initiate gives a phone suppressed for voice a `failed` result and no call; ' +
  'interview/invite gives an email suppressed for email a `failed` result and no email; a call of the phone that has not ended is cancelled ' +
  '(`cancel_reason: "opted_out"`; an attempt in progress finishes, with no retry and no fallback after it); a WhatsApp message to a phone ' +
  'suppressed for WhatsApp or voice is `skipped` (`skip_reason: "opted_out"`); invitations, reminders and resends to a suppressed email are not sent. ' +
  'Every dial, message and email reads the list right before it goes out (docs/contact-rules.md).';

export const SUPPRESSION_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: `${V1}/suppressions`,
    operationId: 'createSuppression',
    summary: 'Stop contacting a phone or an email',
    description: `${EFFECTS} Phones compare as E.164, emails case-insensitively. \`channels\` defaults to all three.`,
    tag: 'Suppressions',
    security: 'apiKey',
    body: {
      schema: SuppressionCreateRequest,
      example: { phone: ENTRY_EXAMPLE.phone, email: ENTRY_EXAMPLE.email, reason: ENTRY_EXAMPLE.reason },
    },
    responses: {
      201: { description: 'Filed, and in force.', schema: SuppressionResponse, example: { success: true, data: ENTRY_EXAMPLE } },
      ...callErrors(400, 401, 413, 500, 503),
    },
  },
  {
    method: 'get',
    path: `${V1}/suppressions`,
    operationId: 'listSuppressions',
    summary: "The workspace's suppression list, newest first",
    description:
      'Every entry, whatever its source: `api`, `whatsapp` (a STOP reply), `email_link` (an unsubscribe link), `interview_page` ' +
      '(the candidate\'s "Don\'t contact me again"), `call_page` (their call link\'s "Stop contacting me"), `erasure` (hashes only: its phone and email are null). Filtered by `phone`, `email` ' +
      'or `source`; pages follow `next_cursor`, and a cursor made for other filters is refused (400).',
    tag: 'Suppressions',
    security: 'apiKey',
    parameters: queryParameters(SuppressionListQuery).map((p) => ({ ...p, required: false })),
    responses: {
      200: {
        description: 'One page of entries.',
        schema: SuppressionListResponse,
        example: { success: true, data: [ENTRY_EXAMPLE], next_cursor: null },
      },
      ...callErrors(400, 401, 429, 500, 503),
    },
  },
  {
    method: 'delete',
    path: `${V1}/suppressions/{id}`,
    operationId: 'deleteSuppression',
    summary: 'Take an entry out of the suppression list',
    description:
      'Only entries filed through the API (`source: "api"`) may be taken out; the others are the person\'s own (a WhatsApp STOP, an email\'s unsubscribe link, the interview page, an erasure) and answer 409. The phone and email may then be contacted again on its channels, unless another entry still covers them. Calls it cancelled stay cancelled.',
    tag: 'Suppressions',
    security: 'apiKey',
    parameters: id('The entry id (`sup_…`).'),
    responses: {
      204: { description: 'Taken out; no body.' },
      ...callErrors(401, 404, 500, 503),
      409: {
        ...callErrors(409)[409],
        description: 'The entry is the person\'s own (its source is not "api"): only they can undo it, and it stays in force.',
      },
    },
  },
];
