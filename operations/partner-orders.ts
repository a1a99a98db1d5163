import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import type { PartnerAssessmentDoc, PartnerTestDoc } from '../infra/documents/partners';
import { partnerAssessmentId } from '../stores/partner-assessments';
import { NotFoundError, UnfitCandidateError } from '../shared/errors';
import type { PartnerAts } from '../shared/partners/schema';
import { callResult, interviewResult, type PartnerResult } from '../shared/partners/results';
import { projectUrl } from '../shared/public-urls';
import type { OperationDeps } from './deps';
import type { CancelCall } from './call-cancel';
import type { CallInitiateRequest, CallInitiateResponse } from '../shared/calls/schema';
import type { InviteRequest, InviteResponse } from '../shared/interviews/schema';
import type { PartnerLink } from '../infra/documents/partners';
import { ensureCampaign } from './campaigns';
import { interviewEvent } from '../stores/interviews';

/** An order as an ATS's door reads it from its own request (api/partners/). */
export interface PartnerOrder {
  ats: PartnerAts;
  testId: string;
  /** The ATS's own name for the order: the same one sent twice is one (the application and the test, for both). */
  orderKey: string;
  applicationId: string;
  job: { id: string; name: string } | null;
  /** Where the ATS takes the completed result (Greenhouse's `url`); null where its API is fixed (Ashby's). */
  callbackUrl: string | null;
  /** The credential the order came with, where its ATS authenticates our report with it (Greenhouse's). */
  callbackAuth: string | null;
  candidate: { firstName: string; lastName: string; email: string; phone: string | null };
}

/** How long a repeat of an order waits for the same order, sent a moment before, to have started. */
const STARTING_WAIT_MS = 5_000;

/**
 * An ATS's orders (docs/ats/): a candidate sent to one of the workspace's tests is filed and invited, or called,
 * through the very use cases interview/invite and call/initiate run (every rule of theirs holds: consent, the
 * suppression list, the calling window and dial cap, erasure, one interview per candidate and job), in a project
 * of its own per ATS job and test. The order is claimed first (stores/partner-assessments.ts), so the same order
 * sent twice, or twice at once, is one, and answers the same id.
 */
/** The use cases an order runs, as composed in operations/index.ts. */
interface OrderUseCases {
  inviteCandidates(workspace: Readonly<WorkspaceDoc>, req: InviteRequest & PartnerLink): Promise<InviteResponse>;
  initiateCalls(workspace: Readonly<WorkspaceDoc>, req: CallInitiateRequest & PartnerLink): Promise<CallInitiateResponse>;
  cancelCall: CancelCall;
}

export function partnerOrders(deps: OperationDeps, ops: OrderUseCases) {
  const { stores, config } = deps;

  /** What runs the order: its interview, or its call. */
  async function start(workspace: Readonly<WorkspaceDoc>, test: PartnerTestDoc, order: PartnerOrder, id: string) {
    const atsJobId = `${order.ats}-${order.job ? `${order.job.id}-` : ''}${test._id}`;
    const candidate = {
      id: `${order.ats}-${order.applicationId}`,
      name: `${order.candidate.firstName} ${order.candidate.lastName}`,
      email: order.candidate.email,
    };
    if (test.kind === 'interview') {
      const res = await ops.inviteCandidates(workspace, {
        ...test.interview!,
        ats_job_id: atsJobId,
        candidates: [candidate],
        partner_assessment_id: id,
      });
      const entry = res.data.interviews[0];
      if (entry.status !== 'success' || !entry.id) throw new UnfitCandidateError(entry.message);
      return { kind: 'interview' as const, id: entry.id, project_id: res.data.project_id };
    }
    const phone = e164(order.candidate.phone);
    if (!phone)
      throw new UnfitCandidateError('This test is a phone screen: the candidate needs a phone number in international format (+…).');
    const { project } = await ensureCampaign(stores, workspace._id, { ats_job_id: atsJobId, name: order.job?.name ?? test.name });
    const res = await ops.initiateCalls(workspace, {
      ...test.phone_screen!,
      ats_job_id: atsJobId,
      candidates: [{ ...candidate, phone }],
      partner_assessment_id: id,
    });
    const entry = res.data.calls[0];
    if (entry.status !== 'success' || !entry.id) throw new UnfitCandidateError(entry.message);
    return { kind: 'call' as const, id: entry.id, project_id: project._id };
  }

  /** The order as it stands once started: a repeat waits a moment for the one sent just before it. */
  async function whenStarted(id: string): Promise<PartnerAssessmentDoc> {
    for (const until = Date.now() + STARTING_WAIT_MS; ;) {
      const doc = await stores.partnerAssessments.get(id);
      if (doc?.resource) return doc;
      if (!doc || Date.now() > until) throw new UnfitCandidateError('The same order is being started; please send it again in a minute.');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function owned(workspace: Readonly<WorkspaceDoc>, ats: PartnerAts, id: string): Promise<PartnerAssessmentDoc> {
    const doc = await stores.partnerAssessments.get(id);
    if (!doc || doc.workspace_id !== workspace._id || doc.ats !== ats || !doc.resource) throw new NotFoundError('No such test was sent');
    return doc;
  }

  return {
    /** The workspace's tests, as an ATS lists them. */
    tests: (workspace: Readonly<WorkspaceDoc>) => stores.partnerTests.list(workspace._id),

    /** Sends the candidate to the test: the order's id, the same for the same order sent again. */
    async order(workspace: Readonly<WorkspaceDoc>, order: PartnerOrder): Promise<string> {
      const test = await stores.partnerTests.owned(workspace._id, order.testId);
      if (!test || test.deleted_at) throw new NotFoundError(`No test ${order.testId} in this workspace`);
      const id = partnerAssessmentId(workspace._id, order.ats, order.orderKey);
      const claimed = await stores.partnerAssessments.claim({
        _id: id,
        workspace_id: workspace._id,
        ats: order.ats,
        test_id: test._id,
        order: {
          application_id: order.applicationId,
          job_id: order.job?.id ?? null,
          callback_url: order.callbackUrl,
          callback_auth: order.callbackAuth ? await stores.partnerKeys.seal(order.callbackAuth) : null,
        },
        resource: null,
        created_at: new Date(),
        cancelled_at: null,
        pushed_version: 0,
        pushed_at: null,
      });
      if (!claimed) {
        const doc = await whenStarted(id);
        // Sent again with a new report URL (a Greenhouse resend): the result goes where the ATS now expects it.
        if (order.callbackUrl && doc.order.callback_url !== order.callbackUrl)
          await stores.partnerAssessments.reportTo(
            id,
            order.callbackUrl,
            order.callbackAuth ? await stores.partnerKeys.seal(order.callbackAuth) : null,
          );
        return id;
      }
      try {
        await stores.partnerAssessments.started(id, await start(workspace, test, order, id));
      } catch (err) {
        // Nothing was started: the order goes, so the ATS's retry starts afresh.
        await stores.partnerAssessments.forget(id).catch(() => undefined);
        throw err;
      }
      return id;
    },

    /** The order's latest result, and the dashboard page it links to; NotFoundError for another's, or an erased candidate's. */
    async result(workspace: Readonly<WorkspaceDoc>, ats: PartnerAts, id: string): Promise<{ result: PartnerResult; profileUrl: string }> {
      const doc = await owned(workspace, ats, id);
      return (await resultOf({ stores, publicBaseUrl: config.PUBLIC_BASE_URL }, doc)) ?? notFound();
    },

    /** Cancels the order's interview or call through the one cancel (nothing more to do when it had ended). */
    async cancel(workspace: Readonly<WorkspaceDoc>, ats: PartnerAts, id: string): Promise<void> {
      const doc = await owned(workspace, ats, id);
      // An erased candidate's order reads as gone here too.
      if (!(await resultOf({ stores, publicBaseUrl: config.PUBLIC_BASE_URL }, doc))) notFound();
      const resource = doc.resource!;
      if (!doc.cancelled_at) await stores.partnerAssessments.cancelled(id);
      if (resource.kind === 'call') {
        const call = await stores.calls.get(resource.id);
        if (call && !['completed', 'failed', 'cancelled'].includes(call.status)) await ops.cancelCall(call, 'requested');
      } else {
        // Its workflow ended, so nothing more is sent; its link closed, so nothing more is answered.
        const interview = await stores.interviews.get(resource.id);
        if (interview && !interview.erased_at && ['queued', 'invited', 'started'].includes(interview.status)) {
          await deps.workflows.endInterview(interview, 'Cancelled by the ATS that ordered it');
          const to = interview.status === 'queued' ? 'failed' : 'expired';
          await stores.interviews.change(interview, {
            to,
            set: { expires_at: new Date() },
            events: [interviewEvent(`interview.${to}`, interview)],
          });
        }
      }
      await deps.workflows.partnerChanged(id);
    },

    /**
     * The phone of an Ashby candidate sent to a phone screen, as Ashby keeps it: its assessment.start names none.
     * Null for any other test, without the workspace's Ashby API key, or when Ashby has none.
     */
    async ashbyPhone(workspace: Readonly<WorkspaceDoc>, testId: string, ashbyCandidateId: string): Promise<string | null> {
      const test = await stores.partnerTests.owned(workspace._id, testId);
      if (test?.kind !== 'phone_screen' || !deps.atsLookups) return null;
      const key = await stores.partnerKeys.secret(workspace._id, 'ashby');
      return key ? deps.atsLookups.ashbyCandidatePhone(key, ashbyCandidateId) : null;
    },

    /** The dashboard's page of the order's result. */
    profileUrl: (doc: PartnerAssessmentDoc) => profileUrlOf(config.PUBLIC_BASE_URL, doc),
  };
}

const notFound = (): never => {
  throw new NotFoundError('No such test was sent');
};

/** A phone number in E.164, or null: an ATS may send one as its user typed it. */
function e164(raw: string | null): string | null {
  if (!raw) return null;
  const parsed = parsePhoneNumberFromString(raw.trim());
  return parsed?.isValid() ? parsed.number : null;
}

const profileUrlOf = (base: string, doc: PartnerAssessmentDoc) =>
  `${projectUrl(base, doc.resource!.project_id)}#${doc.resource!.kind}-${doc.resource!.id}`;

/** The order's latest result from its interview or call; null when the candidate was erased (nothing of them is told). */
export async function resultOf(
  { stores, publicBaseUrl }: { stores: Pick<OperationDeps['stores'], 'interviews' | 'calls'>; publicBaseUrl: string },
  doc: PartnerAssessmentDoc,
): Promise<{ result: PartnerResult; profileUrl: string } | null> {
  if (!doc.resource) return null;
  const profileUrl = profileUrlOf(publicBaseUrl, doc);
  if (doc.resource.kind === 'interview') {
    const interview = await stores.interviews.get(doc.resource.id);
    if (!interview || interview.erased_at) return null;
    return { result: interviewResult(interview, doc.cancelled_at !== null), profileUrl };
  }
  const call = await stores.calls.get(doc.resource.id);
  if (!call || call.erased_at) return null;
  return { result: callResult(call), profileUrl };
}

export type PartnerOrders = ReturnType<typeof partnerOrders>;
