import { callCancel, requestedCancels, type CancelCall, type RequestedCancels } from './call-cancel';
import { reportIntake, type ReportIntake } from './call-reports';
import { candidateFiling, type FileCandidates } from './candidates';
import { initiateCalls } from './call-initiation';
import { inviteCandidates } from './invitations';
import type { WorkspaceDoc } from '../infra/documents/workspaces';
import type { PartnerLink } from '../infra/documents/partners';
import type { CallInitiateRequest, CallInitiateResponse } from '../shared/calls/schema';
import type { InviteRequest, InviteResponse } from '../shared/interviews/schema';
import type { OperationDeps } from './deps';
import { erasure, type Erasure } from './erasure';
import { suppressionFiling, type SuppressionFiling } from './suppressions';
import { interviewReviews, type ReviewInterview } from './interview-reviews';
import { callBackAnswering, type CallBackAnswering } from './call-backs';
import { interviewSteps, type InterviewSteps } from './interview-steps';
import { candidateOptOuts, type CandidateOptOuts } from './candidate-opt-outs';
import { projectViews, type ProjectViews } from './project-views';
import { interviewResend } from './interview-resend';
import { handleWhatsAppEvent } from './whatsapp-statuses';
import { deliveryRetries } from './delivery-retries';
import { liveInterviews, type LiveInterviews } from './live-interviews';
import { partnerOrders, type PartnerOrders } from './partner-orders';
import { recordingDownloads, type RecordingDownloads } from './recording-downloads';
import { callCandidateLinks, type CallCandidateLinks } from './call-candidate-links';

export type { OperationDeps, WorkflowPort } from './deps';

/**
 * What happens when, in one place each: every use case, whatever door runs it (the API, the pages, the
 * worker), on the stores and the workflow port (docs/architecture.md). Built once per process by
 * composition/stores.ts.
 */
export interface Operations {
  /** A call's one cancel, with its reason (operations/call-cancel.ts). */
  cancelCall: CancelCall;
  /** The API's cancels of one call and of a job's calls, through that one (operations/call-cancel.ts). */
  cancels: RequestedCancels;
  /** A bulk request's candidates filed, with the person index (operations/candidates.ts). */
  fileCandidates: FileCandidates;
  /** call/initiate: a campaign's candidates called, each once (operations/call-initiation.ts). */
  initiateCalls(workspace: Readonly<WorkspaceDoc>, req: CallInitiateRequest & PartnerLink): Promise<CallInitiateResponse>;
  /** interview/invite: a job's candidates invited, each once (operations/invitations.ts). */
  inviteCandidates(workspace: Readonly<WorkspaceDoc>, req: InviteRequest & PartnerLink): Promise<InviteResponse>;
  /** Suppressions filed, and the person's waiting calls stopped (operations/suppressions.ts). */
  suppressions: SuppressionFiling;
  /** The candidate's own: an email's unsubscribe link, the interview page's opt-out (operations/candidate-opt-outs.ts). */
  optOuts: CandidateOptOuts;
  /** A provider's report of an attempt, taken in (operations/call-reports.ts). */
  reports: ReportIntake;
  /** A person's data out of a workspace (operations/erasure.ts). */
  erasure: Erasure;
  /** A person's decision on a finished interview (operations/interview-reviews.ts). */
  reviewInterview: ReviewInterview;
  /** POST /interviews/:id/resend: the link sent again, an expired one opened again (operations/interview-resend.ts). */
  resendInterview: ReturnType<typeof interviewResend>;
  /** A verified WhatsApp Cloud delivery: its message statuses applied, its STOP replies filed (operations/whatsapp-statuses.ts). */
  whatsAppEvent(body: unknown): Promise<number>;
  /** A webhook delivery tried again now (operations/delivery-retries.ts). */
  retryDelivery: ReturnType<typeof deliveryRetries>;
  /** The dashboard's view of a project: its counts and a page of its candidates (operations/project-views.ts). */
  projectView: ProjectViews;
  /** A candidate's call-back, taken by their open call (operations/call-backs.ts). */
  callBacks: CallBackAnswering;
  /** The candidate's steps on the interview page: start, next, answer, record, finish, decline AI (operations/interview-steps.ts). */
  interviewSteps: InterviewSteps;
  /** Live interviews: the ticket after consent, and the conversations this process holds (operations/live-interviews.ts). */
  liveInterviews: LiveInterviews;
  /** The ATS doors' orders: a candidate sent to a workspace's test, its result, its cancel (operations/partner-orders.ts). */
  partnerOrders: PartnerOrders;
  /** An interview's recording (an answer's or the conversation's), for the API and the dashboard (operations/recording-downloads.ts). */
  recordingDownload: RecordingDownloads;
  /** The candidate's own link to their call: call now, a time, decline, answer in writing, stop (operations/call-candidate-links.ts). */
  callLinks: CallCandidateLinks;
}

export function createOperations(deps: OperationDeps): Operations {
  const cancelCall = callCancel(deps);
  const bulk = { ...deps, fileCandidates: candidateFiling(deps) };
  const suppressions = suppressionFiling(deps);
  const steps = interviewSteps(deps);
  const initiate: Operations['initiateCalls'] = (workspace, req) => initiateCalls(bulk, workspace, req);
  const invite: Operations['inviteCandidates'] = (workspace, req) => inviteCandidates(bulk, workspace, req);
  const optOuts = candidateOptOuts(deps, suppressions);
  return {
    cancelCall,
    cancels: requestedCancels(deps, cancelCall),
    fileCandidates: bulk.fileCandidates,
    initiateCalls: initiate,
    inviteCandidates: invite,
    suppressions,
    optOuts,
    reports: reportIntake(deps),
    erasure: erasure(deps, cancelCall),
    reviewInterview: interviewReviews(deps),
    projectView: projectViews(deps),
    resendInterview: interviewResend(deps),
    retryDelivery: deliveryRetries(deps),
    whatsAppEvent: (body) => handleWhatsAppEvent({ stores: deps.stores, suppressions, logger: deps.logger }, body),
    callBacks: callBackAnswering(deps),
    interviewSteps: steps,
    liveInterviews: liveInterviews({ ...deps, steps }),
    partnerOrders: partnerOrders(deps, { inviteCandidates: invite, initiateCalls: initiate, cancelCall }),
    recordingDownload: recordingDownloads(deps),
    callLinks: callCandidateLinks({ ...deps, now: () => new Date() }, optOuts),
  };
}
