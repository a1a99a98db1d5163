import type { PartnerLink } from './partners';
import { newToken } from '../ids';
import { candidateZones } from '../phone-zones';
import { callingWindowOf, defaultTimezone, type WorkspaceDoc } from './workspaces';
import { hoursZonesOf } from '../../shared/calls/working-hours';
import { windowHours } from '../../shared/contact/zones';
import type { ZonedHours } from '../../shared/calls/candidate-link';
import { safeEqual } from '../safe-equal';
import type { ConsentBasis } from '../../shared/calls/consent';
import type {
  AssistantSettings,
  CallSettings,
  CallStatus,
  CancelReason,
  CandidateChoiceKind,
  CompletionChannel,
  FormFallback,
  DeferralReason,
  ExtractVariable,
  MessageStatus,
  SkipReason,
  MessageKind,
} from '../../shared/calls/schema';
import type { FailureReason } from '../../shared/calls/retry';

/** Stored calls, with their attempts and messages, and what the WhatsApp providers keep about them. */

/**
 * The update path of attempt n, stored at index n-1: attempts are appended one at a time, in order, by the
 * dial activity. Updates address that index because FerretDB lacks the positional `$` operator.
 */
export function attemptPath(attempt: number): string {
  return `attempts.${attempt - 1}`;
}

export interface CallAttempt {
  number: number;
  /** Absent before call-backs, which is `outbound`: the service dialled. `inbound`: the candidate called back. */
  direction?: 'outbound' | 'inbound';
  provider: string;
  provider_call_id: string | null;
  started_at: Date;
  ended_at: Date | null;
  outcome: 'completed' | 'failed' | null;
  failure_reason: FailureReason | null;
  /** The provider's live status of the call (queued, ringing, in-progress, ended), from its status updates. */
  provider_status?: string | null;
  /** When the provider's end-of-call report arrived (or was fetched); the first one is kept. */
  reported_at?: Date | null;
  ended_reason?: string | null;
  recording_url?: string | null;
}

export interface CallMessage {
  kind: MessageKind;
  channel: 'whatsapp';
  template_name: string;
  variables: Record<string, string>;
  /** `sent` when the provider accepted it; delivery callbacks move it on to delivered, read or failed. */
  status: MessageStatus;
  /** Why a `skipped` message was not sent. */
  skip_reason?: SkipReason | null;
  provider: string;
  provider_message_id: string | null;
  /** The provider's error code when it refused or could not deliver the message. */
  error_code?: number | null;
  error: string | null;
  sent_at: Date | null;
  status_updated_at?: Date | null;
}

export interface CallDoc extends PartnerLink {
  _id: string;
  workspace_id: string;
  project_id: string;
  ats_job_id: string;
  candidate_id: string;
  /** `consent`: as the request gave it (shared/calls/consent.ts); it goes with the person at an erasure. */
  candidate: {
    name: string;
    email: string;
    phone: string;
    custom_fields: Record<string, string | number | boolean>;
    consent?: { basis: ConsentBasis; captured_at: Date; source: string };
  };
  workflow_id: string;
  status: CallStatus;
  /** first_message and instructions with the built-in variables already resolved. */
  first_message: string;
  instructions: string;
  assistant_settings: AssistantSettings | null;
  extract_variables: ExtractVariable[];
  call_settings: CallSettings | null;
  /** WhatsApp template variables, resolved, per kind. */
  whatsapp: { pre_call: ResolvedTemplate | null; fallback: ResolvedTemplate | null };
  schedule_at: Date | null;
  scheduled_for: Date | null;
  /** The candidate's zones (infra/phone-zones.ts), fixed when the call is made; absent on calls made before them (UTC). */
  timezones?: string[];
  /** Dials and messages a contact rule moved later (docs/contact-rules.md). */
  deferrals?: Array<{ from: Date; to: Date; reason: DeferralReason }>;
  next_attempt_at: Date | null;
  /** The secret of the candidate's link (`<call id>.<256 random bits>`); absent on calls made before links. */
  candidate_token?: string;
  /** What the link offers (`candidate_choices`); absent: all of them. */
  candidate_choices?: CandidateChoiceKind[];
  /** The candidate's moves of the next dial on their link, in order. */
  reschedules?: Array<{ from: Date | null; to: Date; by: 'candidate'; at: Date }>;
  /** The workspace emails the candidate their link when the call is made (`email_call_links`, as it was then). */
  email_link?: true;
  /** That email: sent, refused by the provider, not sent (the address suppressed for email, or none), or unknown (it may have gone). */
  link_email?: { status: 'sent' | 'failed' | 'skipped' | 'unknown'; sent_at: Date | null; error: string | null };
  /** When the call offers its written form on its own (`form_fallback`); absent: never. */
  form_fallback?: Exclude<FormFallback, 'never'>;
  /** Until when the call, its attempts spent, waits for the written answers. */
  form_until?: Date | null;
  /** How a completed call was completed; absent: by a conversation (`voice`). */
  channel?: CompletionChannel;
  attempts: CallAttempt[];
  messages: CallMessage[];
  transcript: Array<{ role: 'assistant' | 'candidate'; text: string }> | null;
  extracted_variables: Record<string, unknown> | null;
  /** Extracted values that were dropped because they did not have the declared type, one line each. */
  extraction_notes?: string[];
  failure_reason: FailureReason | null;
  /** Why a cancelled call was; absent on calls cancelled before reasons were kept, all through the API. */
  cancel_reason?: CancelReason;
  /** The workspace's calling slot its attempt under way holds (stores/call-slots.ts); null between attempts. */
  capacity_slot?: { key: string; holder: string } | null;
  /** Its events sent to webhooks: their keys, and the last one's sequence (infra/webhooks/events.ts). */
  sequence?: number;
  events?: string[];
  /** When the candidate's data was erased (operations/erasure.ts): the call stays, counted, with nothing of them. */
  erased_at?: Date;
  created_at: Date;
  updated_at: Date;
}

export interface ResolvedTemplate {
  template_name: string;
  variables: Record<string, string>;
}

/** What the `log` WhatsApp provider records instead of sending. */
export interface WhatsAppLogDoc {
  _id: string;
  workspace_id: string;
  call_id: string;
  kind: MessageKind;
  to: string;
  template_name: string;
  variables: Record<string, string>;
  created_at: Date;
}

/**
 * Finds the call from a provider's id in its callbacks by `_id` (`whatsapp/<message id>`), so a delivery
 * status never needs a scan of the calls.
 */
export interface ProviderRefDoc {
  _id: string;
  call_id: string;
  kind: MessageKind;
  created_at: Date;
}

/**
 * The secret of a call's candidate link: the call's id, a dot, and 256 random bits, as an interview link's. The
 * page finds the call by the id (one exact `_id` read) and then compares the whole token in constant time.
 */
export function callLinkToken(callId: string): string {
  return `${callId}.${newToken()}`;
}

/** The call a link's token names, if the token is one of ours in shape; null otherwise. */
export function callIdOfLink(token: string): string | null {
  return /^(call_[0-9a-f]{24})\.[A-Za-z0-9_-]{43}$/.exec(token)?.[1] ?? null;
}

/** Whether `token` is the call's own link, compared in constant time; a call made before links has none. */
export function linkMatches(call: CallDoc, token: string): boolean {
  return call.candidate_token !== undefined && safeEqual(token, call.candidate_token);
}

/** The candidate's zones: fixed when the call was made, or, for a call made before zones, found now. */
export function zonesOfCall(call: CallDoc, workspace: Readonly<WorkspaceDoc> | null): string[] {
  return call.timezones ?? candidateZones(undefined, call.candidate.phone, defaultTimezone(workspace));
}

/** The windows a call keeps to, each in its zones: its own working hours, and the workspace's calling window. */
export function callWindows(call: CallDoc, workspace: Readonly<WorkspaceDoc> | null): ZonedHours[] {
  const zones = zonesOfCall(call, workspace);
  const hours = call.call_settings?.working_hours;
  const window = callingWindowOf(workspace);
  return [{ hours, zones: hoursZonesOf(hours, zones) }, ...(window ? [{ hours: windowHours(window), zones }] : [])];
}
