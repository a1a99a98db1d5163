import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FAILURE_REASONS, MESSAGE_KINDS, MESSAGE_STATUSES } from '../shared/calls/schema';
import { PARTNER_ATS } from '../shared/partners/schema';
import { CANDIDATE_CHOICE_KINDS, CANDIDATE_REFUSALS } from '../shared/calls/candidate-link';

/**
 * The service's Prometheus metrics (docs/metrics.md): one registry per process, served by
 * infra/metrics-server.ts with the Temporal SDK's own `temporal_` metrics beside them. Every label value
 * comes from a closed set (a status, a reason, a route's template), never from an id, an address or a job.
 */
export const registry = new Registry();

let defaultsOn = false;
/** Node's process metrics (CPU, memory, event-loop lag, GC), from the moment a process serves /metrics. */
export function collectProcessMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: registry });
}

const registers = [registry];

/** OpenTelemetry's HTTP server duration, in Prometheus' naming; `route` is the matched template. */
export const httpRequestDuration = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'Duration of HTTP requests the API answered, by method, route template and status code.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
  registers,
});

export const callsStarted = new Counter({
  name: 'hiring_calls_started_total',
  help: 'Calls accepted by call/initiate (each call once, however often its request is repeated).',
  registers,
});

export const callAttempts = new Counter({
  name: 'hiring_call_attempts_total',
  help: 'Call attempts that ended, by direction (outbound: dialled; inbound: the candidate called back), outcome and failure reason ("none" for a completed attempt).',
  labelNames: ['direction', 'outcome', 'failure_reason'] as const,
  registers,
});

export const callsEnded = new Counter({
  name: 'hiring_calls_ended_total',
  help: 'Calls that reached a final status: completed, failed or cancelled.',
  labelNames: ['status'] as const,
  registers,
});

export const interviewsByStage = new Counter({
  name: 'hiring_interviews_total',
  help: 'Interviews reaching each stage: invited, started, completed, expired, failed.',
  labelNames: ['stage'] as const,
  registers,
});

export const emails = new Counter({
  name: 'hiring_emails_total',
  help: 'Emails handed to the email provider, by kind and result: sent, refused (final) or error (retried).',
  labelNames: ['kind', 'result'] as const,
  registers,
});

export const whatsappMessages = new Counter({
  name: 'hiring_whatsapp_messages_total',
  help: 'WhatsApp template messages by kind (pre_call, fallback) and status: sent, failed, skipped, delivered, read.',
  labelNames: ['kind', 'result'] as const,
  registers,
});

export const webhookDeliveries = new Counter({
  name: 'hiring_webhook_deliveries_total',
  help: 'Webhook delivery tries by result: delivered, retrying (another try is due) or failed (no try left).',
  labelNames: ['result'] as const,
  registers,
});

export const aiRequests = new Counter({
  name: 'hiring_ai_requests_total',
  help: 'Requests to the language model and the transcriber, by operation and result (ok or error).',
  labelNames: ['operation', 'result'] as const,
  registers,
});

/** Results reported to the ATSs that ordered them (docs/ats/), by ATS and outcome. */
export const PARTNER_REPORT_OUTCOMES = ['reported', 'skipped', 'refused'] as const;
export const partnerReports = new Counter({
  name: 'hiring_partner_reports_total',
  help: 'Results of ATS orders reported to their ATS (docs/ats/), by ATS and outcome: reported (the ATS took it), skipped (its contract hears no such result: Greenhouse only of an end), refused (for good: a 4xx, a host not allowed, no credential).',
  labelNames: ['ats', 'outcome'] as const,
  registers,
});

/** What an erasure refused afterwards (docs/erasure.md): a write that would have brought the person's data back. */
export const ERASED_WRITE_KINDS = ['call', 'interview', 'report'] as const;
export const erasedWritesRefused = new Counter({
  name: 'hiring_erased_writes_refused_total',
  help: "Writes refused because the person was erased before they landed: a change of a call or an interview (an answer, a recording, a late step), a provider's report of an erased call.",
  labelNames: ['kind'] as const,
  registers,
});

/** Why a call-back was answered "nothing pending", or ended at its identity check (docs/calls.md): a bounded set. */
export const CALL_BACK_REFUSALS = [
  'never_dialled',
  'not_missed',
  'too_old',
  'too_many',
  'under_way',
  'no_consent',
  'suppressed',
  'no_slot',
  'refused_by_call',
  'no_answer',
  'no_attempt',
  'identity',
  'unconfirmed',
] as const;
export const callBacksRefused = new Counter({
  name: 'hiring_call_backs_refused_total',
  help: "Call-backs refused, by reason: a call that may not take one (never dialled, not missed, missed too long ago, too many today, an attempt under way, no consent, suppressed), no free calling slot, the call's workflow refusing it or not answering in time, a caller whose name was not the candidate's, or the report of a call-back whose caller was never confirmed (unconfirmed).",
  labelNames: ['reason'] as const,
  registers,
});

/** Provider reports that named no call of ours, or another call than the one they were fetched for: kept nowhere. */
export const foreignReports = new Counter({
  name: 'hiring_provider_reports_foreign_total',
  help: "Provider reports kept nowhere because the assistant's metadata did not name the call and attempt they were for.",
  labelNames: ['provider'] as const,
  registers,
});

/**
 * Calls in a status right now, across every process (`hiring_calls_in_progress`,
 * `hiring_calls_waiting_for_capacity`): registered by a worker, which reads them from `count` at scrape
 * (Temporal's visibility store: composition/metrics.ts). No workspace label: the set of workspaces is unbounded.
 * A count that fails leaves the last value, not a failed scrape.
 */
export function gaugeCallsFrom(count: (status: 'in_progress' | 'waiting_for_capacity') => Promise<number>): void {
  const gauges = [
    [
      'hiring_calls_in_progress',
      'in_progress',
      'Calls with an attempt under way, across the whole service (every worker reports it: take max()).',
    ],
    [
      'hiring_calls_waiting_for_capacity',
      'waiting_for_capacity',
      "Calls due but waiting for one of their workspace's calling slots, across the whole service (take max()).",
    ],
  ] as const;
  for (const [name, status, help] of gauges) {
    if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        await count(status).then(
          (n) => this.set(n),
          () => undefined,
        );
      },
    });
  }
}

/** Live interviews (docs/live-interviews.md). */
export const liveConversations = new Gauge({
  name: 'hiring_live_conversations',
  help: 'Live interview conversations this API process holds now (sum over the API processes).',
  registers,
});
export const LIVE_LATENCY_PARTS = ['total', 'ours'] as const;
export const liveTurnLatency = new Histogram({
  name: 'hiring_live_turn_latency_seconds',
  help: "From the end of the candidate's turn (the provider's speech_stopped) to the interviewer's first audio, as the server sees it (part=total), and the share of it spent in this service between the transcript's arrival and the provider being asked to speak (part=ours).",
  labelNames: ['part'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5],
  registers,
});
export const LIVE_RECONNECT_KINDS = ['socket', 'provider_session'] as const;
export const liveReconnects = new Counter({
  name: 'hiring_live_reconnects_total',
  help: 'Live conversations taken up again: on a new socket (a dropped connection, a reload, another tab; kind=socket), or on a new provider session after one failed (kind=provider_session).',
  labelNames: ['kind'] as const,
  registers,
});
export const liveResponseLatency = new Histogram({
  name: 'hiring_live_response_latency_seconds',
  help: "What the candidate waits for, as the page hears it: from the end of their answer (the provider's speech_stopped, as the page is told) to the interviewer's first sound playing in the browser (part=total), and the share of it not the provider's own, transcribing and answering (part=ours: capture, relay, this service, playback).",
  labelNames: ['part'] as const,
  buckets: [0.05, 0.1, 0.15, 0.25, 0.5, 0.7, 1, 1.2, 1.5, 2, 3, 5],
  registers,
});

export const liveFirstAudio = new Histogram({
  name: 'hiring_live_first_audio_seconds',
  help: 'From pressing "Start the conversation" to the greeting playing in the browser, as the page measured it.',
  buckets: [0.25, 0.5, 1, 1.5, 2, 3, 5, 10],
  registers,
});

/** The candidate's voice over the interviewer's, as the page judged it (CUT_IN): the reply stopped, or a noise let go. */
export const LIVE_CUT_IN_OUTCOMES = ['stopped', 'ignored'] as const;
export const liveCutIns = new Counter({
  name: 'hiring_live_cut_ins_total',
  help: 'The candidate\'s voice over the interviewer\'s in a live interview: outcome=stopped when it was held long enough to stop the reply (cut where the page stopped playing it), ignored when it fell before (a cough, an "mm-hmm").',
  labelNames: ['outcome'] as const,
  registers,
});

/** The candidate's choices on their call's link (docs/call-links.md), and what came of each. */
export const CALL_LINK_OUTCOMES = ['taken', ...CANDIDATE_REFUSALS, 'invalid', 'unanswered'] as const;
export const callLinkChoices = new Counter({
  name: 'hiring_call_link_choices_total',
  help: "The candidate's choices on their call's link: choice=call_now|move|decline|form, and outcome=taken, a refusal's reason, invalid (a form to correct) or unanswered (the workflow did not answer in time).",
  labelNames: ['choice', 'outcome'] as const,
  registers,
});

export const LIVE_PROVIDER_ERROR_KINDS = ['error', 'session_failed', 'open_failed'] as const;
export const liveProviderErrors = new Counter({
  name: 'hiring_live_provider_errors_total',
  help: "Realtime providers' errors in live interviews: an error event the session survived (kind=error), a session that failed (kind=session_failed), or a session that could not be opened (kind=open_failed: a refused or silent provider; the socket closes 1013 and the process goes on).",
  labelNames: ['provider', 'kind'] as const,
  registers,
});

/** The closed sets the counters' labels take (docs/metrics.md). */
export const ATTEMPT_DIRECTIONS = ['outbound', 'inbound'] as const;
export const CALL_ENDS = ['completed', 'failed', 'cancelled', 'declined'] as const;
export const INTERVIEW_STAGES = ['invited', 'started', 'completed', 'expired', 'failed'] as const;
export const EMAIL_KINDS = ['invitation', 'reminder', 'resend', 'call_link'] as const;
export const AI_OPERATIONS = ['parse_job_description', 'generate_questions', 'generate_script', 'assess_interview', 'transcribe'] as const;

/**
 * Every series of a known label set exists from the start, at 0: a panel reads 0 rather than "No data" before
 * the first event, and `rate()` sees the first increment (a series born at 1 has no earlier sample to rise from).
 */
function startWhole(): void {
  for (const direction of ATTEMPT_DIRECTIONS) {
    callAttempts.inc({ direction, outcome: 'completed', failure_reason: 'none' }, 0);
    for (const reason of FAILURE_REASONS) callAttempts.inc({ direction, outcome: 'failed', failure_reason: reason }, 0);
  }
  for (const status of CALL_ENDS) callsEnded.inc({ status }, 0);
  for (const stage of INTERVIEW_STAGES) interviewsByStage.inc({ stage }, 0);
  for (const kind of EMAIL_KINDS) for (const result of ['sent', 'refused', 'error']) emails.inc({ kind, result }, 0);
  for (const kind of MESSAGE_KINDS) for (const result of MESSAGE_STATUSES) whatsappMessages.inc({ kind, result }, 0);
  for (const result of ['delivered', 'retrying', 'failed']) webhookDeliveries.inc({ result }, 0);
  for (const operation of AI_OPERATIONS) for (const result of ['ok', 'error']) aiRequests.inc({ operation, result }, 0);
  for (const kind of ERASED_WRITE_KINDS) erasedWritesRefused.inc({ kind }, 0);
  for (const reason of CALL_BACK_REFUSALS) callBacksRefused.inc({ reason }, 0);
  for (const choice of CANDIDATE_CHOICE_KINDS) for (const outcome of CALL_LINK_OUTCOMES) callLinkChoices.inc({ choice, outcome }, 0);
  for (const ats of PARTNER_ATS) for (const outcome of PARTNER_REPORT_OUTCOMES) partnerReports.inc({ ats, outcome }, 0);
  for (const provider of ['vapi', 'simulator']) foreignReports.inc({ provider }, 0);
  for (const kind of LIVE_RECONNECT_KINDS) liveReconnects.inc({ kind }, 0);
  for (const part of LIVE_LATENCY_PARTS) liveTurnLatency.zero({ part });
  for (const outcome of LIVE_CUT_IN_OUTCOMES) liveCutIns.inc({ outcome }, 0);
  for (const part of LIVE_LATENCY_PARTS) liveResponseLatency.zero({ part });
  for (const provider of ['openai', 'simulator'])
    for (const kind of LIVE_PROVIDER_ERROR_KINDS) liveProviderErrors.inc({ provider, kind }, 0);
}
startWhole();

/** The label a value from outside a closed set gets, so a new or unexpected value never makes a new series. */
export const OTHER = 'other';
export const oneOf = <T extends string>(value: string | null | undefined, allowed: readonly T[], none = 'none'): string =>
  value === null || value === undefined ? none : (allowed as readonly string[]).includes(value) ? value : OTHER;
