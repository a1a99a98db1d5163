import type { AssistantSettings, ExtractVariable } from '../../shared/schemas/call-initiate';
import type { FailureReason } from '../../shared/retry';

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
}

export type DialResult = { accepted: true; providerCallId: string } | { accepted: false; reason: FailureReason };

/**
 * A voice-agent provider places the call and later reports its outcome through the provider-callback path
 * (infra/call-reports.ts), which signals the call workflow.
 */
export interface VoiceProvider {
  readonly name: string;
  dial(request: DialRequest): Promise<DialResult>;
}

export type CallReport = {
  callId: string;
  attempt: number;
  outcome: 'completed' | FailureReason;
  transcript?: Array<{ role: 'assistant' | 'candidate'; text: string }>;
  extracted?: Record<string, unknown>;
};

export type ReportCallOutcome = (report: CallReport) => Promise<void>;
