import { Type, type Static } from '@sinclair/typebox';
import { E164_PATTERN } from '../formats';
import { NonEmpty, Strict } from '../schema-builders';
import type { Issue } from '../errors';

/** POST /api/public/v1/candidates/erase (docs/erasure.md): whom to erase; any of the three matches. */
export const ErasureRequest = Strict(
  {
    candidate_id: Type.Optional(NonEmpty({ maxLength: 255, description: "The ATS's candidate id, in any project of the workspace." })),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 254,
        description: 'Compared case-insensitively.',
        errorMessage: 'must be an email address',
      }),
    ),
    phone: Type.Optional(
      Type.String({
        pattern: E164_PATTERN,
        description: 'An E.164 phone number.',
        errorMessage: 'must be an E.164 phone number such as +14155550123',
      }),
    ),
  },
  { description: 'At least one of candidate_id, email and phone.' },
);
export type ErasureRequest = Static<typeof ErasureRequest>;

export function erasureRules(input: unknown): Issue[] {
  const body = input as Partial<ErasureRequest> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  if (body.candidate_id !== undefined || body.email !== undefined || body.phone !== undefined) return [];
  return [{ path: ['candidate_id'], message: 'is required when there is no email and no phone: name whom to erase' }];
}

const ErasureId = Type.String({ description: 'The erasure, as its workflow in the Temporal UI names it (`erasure-<id>`).' });

export const ErasureResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    erasure_id: ErasureId,
    status: Type.Literal('erased'),
    calls: Type.Integer({ minimum: 0, description: 'Calls erased (they stay, with nothing of the person).' }),
    interviews: Type.Integer({ minimum: 0, description: 'Interviews erased (they stay, with nothing of the person).' }),
    recordings: Type.Integer({ minimum: 0, description: 'Recorded answers deleted.' }),
    provider_deletions: Type.Integer({
      minimum: 0,
      description:
        "Copies of the person's calls the voice provider was asked to delete (Vapi's DELETE /call/{id}, or the simulator's own), each retried until the provider answers.",
    }),
  }),
});

/** 202: the erasure goes on (a call's attempt under way, whose report is still to come), and ends on its own. */
export const ErasureInProgressResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    erasure_id: ErasureId,
    status: Type.Literal('in_progress'),
    message: Type.String(),
  }),
});

/** Who to erase in a workspace: the ATS's candidate id, an email, a phone; any of them matches. */
export interface ErasureTarget {
  candidate_id?: string;
  email?: string;
  phone?: string;
}

/** What an erasure erased: the counts POST /candidates/erase answers with. */
export interface ErasureCounts {
  calls: number;
  interviews: number;
  recordings: number;
  provider_deletions: number;
}

/** A voice provider's copy of a call, as its attempt recorded it: what an erasure has the provider delete. */
export interface ProviderCallRef {
  provider: string;
  providerCallId: string;
}
