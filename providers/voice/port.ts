import type { AssistantSettings, ExtractVariable } from '../../shared/calls/schema';
import type { FailureReason, AttemptResult } from '../../shared/calls/retry';

export interface DialRequest {
  callId: string;
  attempt: number;
  to: string;
  candidateName: string;
  firstMessage: string;
  instructions: string;
  assistantSettings: AssistantSettings | null;
  extractVariables: ExtractVariable[];
  customFields: Record<string, string | number | boolean>;
  /** The workspace's own number to call from (its provider's id); absent or null: the service's. */
  fromNumberId?: string | null;
}

/**
 * What the assistant of an attempt says and does, for a dial and a call-back alike: its first words, its
 * instructions, settings and the values it extracts (built from the stored call by operations/call-scripts.ts).
 * `CallScript` is another thing: the script an ATS asks the ai endpoints to write (shared/ai/schema.ts).
 */
export type AssistantScript = Omit<DialRequest, 'to' | 'fromNumberId' | 'customFields'>;

/**
 * What answers a call-back before the caller is known (docs/calls.md): first words that name the company and
 * ask the caller's full name, instructions that know nothing of the call but to check that name with the
 * identity tool (IDENTITY_TOOL), and the call's settings and extraction. No person and no job.
 */
export type CallBackGate = Omit<AssistantScript, 'candidateName'>;

export type DialResult =
  /** `reportWithinMs`: how long after the dial its report can still come (the provider's longest call plus a grace). */
  | { accepted: true; providerCallId: string; reportWithinMs?: number }
  /**
   * The provider refused the call; dialling this attempt again would be refused the same way. `busy`: it
   * refused only for now (429, its concurrency cap): the attempt did not happen and may be dialled after
   * `retryAfterMs`.
   */
  | { accepted: false; reason: FailureReason; detail?: string; busy?: true; retryAfterMs?: number };

/**
 * A voice-agent provider places the call and later reports how each attempt ended through the provider-callback path
 * (operations/call-reports.ts), which signals the call workflow.
 */
export interface VoiceProvider {
  readonly name: string;
  /**
   * The longest a call can last plus the time its report may take to arrive: after this long without a
   * report, the call workflow asks the provider (fetchReport) how the attempt ended.
   */
  readonly reportWithinMs?: number;
  dial(request: DialRequest): Promise<DialResult>;
  /** The provider's id of a call an interrupted earlier dial of this attempt placed, or null when it placed none. */
  findDial?(callId: string, attempt: number, since: Date, fromNumberId?: string | null): Promise<string | null>;
  /**
   * Asks the provider how an attempt ended when its report never came; null while the call is still going;
   * `foreign` when the provider's call names another call or attempt than `ids` (or none): nothing of it is kept.
   */
  fetchReport?(providerCallId: string, ids: { callId: string; attempt: number }): Promise<AttemptReport | null | 'foreign'>;
  /**
   * Sends the end-of-call report of a call that has ended, for a provider whose reports our own worker
   * delivers (the simulator, from a durable timer); a remote provider sends its own.
   */
  deliver?(providerCallId: string): Promise<void>;
  /**
   * Deletes the provider's copy of a call (its name, number, transcript and recording): `deleted` once the
   * provider accepted it, `gone` when it has none. Throws while it cannot tell, so the caller tries again.
   */
  deleteCall?(providerCallId: string): Promise<'deleted' | 'gone'>;
}

/** What a provider reports about one ended attempt. */
export type AttemptReport = {
  callId: string;
  attempt: number;
  /** `inbound` for a call-back's attempt, as our assistant's metadata says; absent or `outbound` for a dial. */
  direction?: 'outbound' | 'inbound';
  result: AttemptResult;
  providerCallId?: string;
  /** The provider's own words for how the call ended. */
  endedReason?: string | null;
  transcript?: Array<{ role: 'assistant' | 'candidate'; text: string }>;
  recordingUrl?: string | null;
  /** Values as the provider extracted them; checked against the call's extract_variables before storing. */
  extracted?: unknown;
  /** The provider's analysis says the screening happened (a call-back's: shared/calls/call-backs.ts). */
  screened?: boolean;
};

/** recorded: first report of the attempt; duplicate: it was reported before; unknown: no such call or attempt. */
/** `erased`: the report's call was erased, and nothing of the report is kept (docs/erasure.md). */
export type ReportResult = 'recorded' | 'duplicate' | 'unknown' | 'erased';
export type ReportAttempt = (report: AttemptReport) => Promise<ReportResult>;

/** A call someone made to one of our numbers, as the voice provider tells it (a call-back: docs/calls.md). */
export interface InboundCall {
  /** The provider's id of the number called. */
  numberId: string;
  /** The caller, E.164. */
  from: string;
  /** The provider's id of the inbound call. */
  providerCallId: string;
}
