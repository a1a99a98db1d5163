import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Enum, NonEmpty, Nullable, Strict } from '../schema-builders';
import { CALL_STATUSES } from '../calls/schema';
import { CallView } from '../calls/resource';
import { INTERVIEW_STATUSES, InterviewView } from '../interviews/schema';

/** GET /calls, /interviews and /projects: their query parameters and answers (docs/lists.md). */

export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

const Since = (what: string) =>
  Type.Optional(
    Type.String({ format: 'date-time', description: `ISO 8601 date-time. ${what}`, errorMessage: 'must be an ISO 8601 date-time' }),
  );

const common = {
  ats_job_id: Type.Optional(NonEmpty({ maxLength: 255, description: 'Only the items of this job.' })),
  created_since: Since('Only items created at or after it.'),
  updated_since: Since(
    'Switches the list to its change feed: items in the order they last changed, oldest change first, from this time. A page with fewer than `limit` items means the feed has nothing more for now.',
  ),
  limit: Type.Integer({
    minimum: LIST_LIMIT.min,
    maximum: LIST_LIMIT.max,
    default: LIST_LIMIT.default,
    description: 'Items per page, 1 to 100.',
  }),
  cursor: Type.Optional(
    NonEmpty({ maxLength: 512, description: "The previous page's next_cursor; the other parameters must be the same." }),
  ),
};
const candidate = Type.Optional(NonEmpty({ maxLength: 255, description: "Only this candidate's items (the ATS's candidate id)." }));

export const CallListQuery = Strict({ ...common, candidate_id: candidate, status: Type.Optional(Enum(CALL_STATUSES)) });
export const InterviewListQuery = Strict({ ...common, candidate_id: candidate, status: Type.Optional(Enum(INTERVIEW_STATUSES)) });
export const PROJECT_KINDS = ['campaign', 'interview'] as const;
export const ProjectListQuery = Strict({ ...common, kind: Type.Optional(Enum(PROJECT_KINDS)) });
export type ListQueryParams = Static<typeof CallListQuery> & Static<typeof ProjectListQuery>;

export const ProjectView = Type.Object({
  id: Type.String(),
  ats_job_id: Type.String(),
  name: Type.String(),
  kind: Enum(PROJECT_KINDS),
  project_url: Type.String(),
  /** Interview projects: the public job page. */
  job_url: Nullable(Type.String()),
  /** Calls (campaigns) or interviews by status; every status is present. */
  candidates: Type.Object({ total: Type.Integer({ minimum: 0 }), by_status: Type.Record(Type.String(), Type.Integer({ minimum: 0 })) }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type ProjectView = Static<typeof ProjectView>;
export const ProjectViewResponse = Type.Object({ success: Type.Literal(true), data: ProjectView });
export type ProjectViewResponse = Static<typeof ProjectViewResponse>;

const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    next_cursor: Nullable(
      Type.String(),
      'Pass it as `cursor` for the next page. Null when a newest-first list has no more; the change feed always gives one, to poll later.',
    ),
  });
export const CallListResponse = Page(CallView);
export const InterviewListResponse = Page(InterviewView);
export const ProjectListResponse = Page(ProjectView);
