import type { CallDoc } from '../documents/calls';
import { sequenceOf } from '../webhooks/events';
import type { CallView } from '../../shared/calls/resource';
import { callLinkUrl } from '../../shared/public-urls';

/** GET /api/public/v1/calls/:id body: what an ATS needs to follow a call, without internal fields. */
/** `sequence`: the call's own, or an event's (its view as the event shows it). */
export function callView(call: CallDoc, publicBaseUrl: string, sequence = sequenceOf(call)): CallView {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const reschedules = call.reschedules ?? [];
  const chosen = reschedules.at(-1)?.to ?? null;
  return {
    id: call._id,
    project_id: call.project_id,
    candidate_id: call.candidate_id,
    status: call.status,
    scheduled_for: iso(call.scheduled_for),
    timezones: call.timezones ?? ['UTC'],
    deferrals: (call.deferrals ?? []).map((d) => ({ from: d.from.toISOString(), to: d.to.toISOString(), reason: d.reason })),
    next_attempt_at: iso(call.next_attempt_at),
    candidate_url: call.candidate_token && !call.erased_at ? callLinkUrl(publicBaseUrl, call.candidate_token) : null,
    // The time chosen stands while the call waits for it.
    candidate_time: chosen && call.next_attempt_at?.getTime() === chosen.getTime() ? chosen.toISOString() : null,
    reschedules: reschedules.map((r) => ({ from: iso(r.from), to: r.to.toISOString(), by: r.by, at: r.at.toISOString() })),
    link_email: call.link_email ? { ...call.link_email, sent_at: iso(call.link_email.sent_at) } : null,
    form_until: call.status === 'scheduled' && call.form_until ? call.form_until.toISOString() : null,
    channel: call.status === 'completed' ? (call.channel ?? 'voice') : null,
    consent: call.candidate.consent ? { ...call.candidate.consent, captured_at: call.candidate.consent.captured_at.toISOString() } : null,
    attempts: call.attempts.map((a) => ({
      number: a.number,
      direction: a.direction ?? 'outbound',
      started_at: iso(a.started_at),
      ended_at: iso(a.ended_at),
      outcome: a.outcome,
      failure_reason: a.failure_reason,
      provider_status: a.provider_status ?? null,
      ended_reason: a.ended_reason ?? null,
      recording_url: a.recording_url ?? null,
    })),
    failure_reason: call.failure_reason,
    cancel_reason: call.status === 'cancelled' ? (call.cancel_reason ?? 'requested') : null,
    extracted_variables: call.extracted_variables,
    extraction_notes: call.extraction_notes ?? [],
    transcript: call.transcript,
    messages: call.messages.map((m) => ({
      kind: m.kind,
      channel: m.channel,
      template_name: m.template_name,
      variables: m.variables,
      status: m.status,
      skip_reason: m.skip_reason ?? null,
      error_code: m.error_code ?? null,
      error: m.error,
      sent_at: iso(m.sent_at),
      status_updated_at: iso(m.status_updated_at ?? null),
    })),
    sequence,
    erased_at: call.erased_at ? call.erased_at.toISOString() : null,
    created_at: call.created_at.toISOString(),
    updated_at: call.updated_at.toISOString(),
  };
}
