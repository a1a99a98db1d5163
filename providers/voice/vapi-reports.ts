import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { AttemptReport } from './port';
import { resultOfEndedReason } from './vapi-ended-reasons';

/**
 * Reading Vapi's view of a call: the body of an `end-of-call-report` server message, or the Call that
 * `GET /call/{id}` returns. Both carry endedReason, the artifact (messages, transcript, recording) and the
 * analysis; the report repeats some of it at its top level. The schemas name only the fields read here, each
 * with the type Vapi documents; every other field passes. A body whose named fields have other types is
 * refused before any of it is read (checkVapiShape).
 */
const Text = Type.Optional(Type.String());
const Metadata = Type.Optional(Type.Record(Type.String(), Type.Unknown()));
const Analysis = Type.Optional(
  Type.Object({ structuredData: Type.Optional(Type.Unknown()), successEvaluation: Type.Optional(Type.Unknown()) }),
);
const VapiArtifact = Type.Object({
  messages: Type.Optional(Type.Array(Type.Object({ role: Text, message: Text }))),
  transcript: Text,
  recordingUrl: Text,
  recording: Type.Optional(Type.Object({ mono: Type.Optional(Type.Object({ combinedUrl: Text })), stereoUrl: Text })),
});
type VapiArtifact = Static<typeof VapiArtifact>;
const Assistant = Type.Optional(Type.Object({ metadata: Metadata }));
const VapiCallLike = Type.Object({
  id: Text,
  name: Text,
  status: Text,
  endedReason: Text,
  startedAt: Text,
  endedAt: Text,
  assistant: Assistant,
  metadata: Metadata,
  artifact: Type.Optional(VapiArtifact),
  analysis: Analysis,
});
type VapiCallLike = Static<typeof VapiCallLike>;
export const VapiServerMessage = Type.Object({
  type: Text,
  status: Text,
  endedReason: Text,
  call: Type.Optional(VapiCallLike),
  assistant: Assistant,
  artifact: Type.Optional(VapiArtifact),
  analysis: Analysis,
  startedAt: Text,
  endedAt: Text,
  durationSeconds: Type.Optional(Type.Number()),
  recordingUrl: Text,
  transcript: Text,
  /** When Vapi sent the message, epoch milliseconds. */
  timestamp: Type.Optional(Type.Number()),
});
export type VapiServerMessage = Static<typeof VapiServerMessage>;
const checkMessage = TypeCompiler.Compile(VapiServerMessage);
const checkCall = TypeCompiler.Compile(VapiCallLike);

/** The first field of a Vapi message or Call whose type is not Vapi's, as a path and message; null when none. */
export function checkVapiShape(value: unknown, kind: 'message' | 'call'): { path: string; message: string } | null {
  const first = (kind === 'message' ? checkMessage : checkCall).Errors(value).First();
  return first ? { path: first.path, message: first.message } : null;
}

/**
 * Our call id and attempt for a Vapi call, from the assistant's metadata only: it is ours, set on every
 * assistant we send (vapi-assistant.ts). The call's name (`<call>#<attempt>`) finds a lost dial again, but
 * joins nothing: a name is not proof that the call is the one it names.
 */
export function attemptOf(
  source: { call?: VapiCallLike; assistant?: { metadata?: Record<string, unknown> } } & VapiCallLike,
): { callId: string; attempt: number } | null {
  for (const meta of [source.call?.assistant?.metadata, source.assistant?.metadata, source.call?.metadata, source.metadata]) {
    const callId = meta?.call_id;
    const attempt = Number(meta?.attempt);
    if (typeof callId === 'string' && Number.isSafeInteger(attempt) && attempt > 0) return { callId, attempt };
  }
  return null;
}

/** The direction our metadata gives the attempt (a call-back's assistant says `inbound`); absent: a dial. */
export function directionOf(source: { call?: VapiCallLike; assistant?: { metadata?: Record<string, unknown> } }): 'inbound' | 'outbound' {
  const meta = source.call?.assistant?.metadata ?? source.assistant?.metadata;
  return meta?.direction === 'inbound' ? 'inbound' : 'outbound';
}

const screenedBy = (evaluation: unknown) =>
  evaluation === true || (typeof evaluation === 'string' && evaluation.trim().toLowerCase() === 'true');

/** The report of an ended attempt, from an end-of-call-report message or a fetched Call. */
export function reportOf(source: VapiServerMessage & VapiCallLike, ids: { callId: string; attempt: number }): AttemptReport {
  const artifact = source.artifact ?? source.call?.artifact;
  const startedAt = source.startedAt ?? source.call?.startedAt;
  const endedAt = source.endedAt ?? source.call?.endedAt;
  const duration =
    typeof source.durationSeconds === 'number'
      ? source.durationSeconds
      : startedAt && endedAt
        ? (Date.parse(endedAt) - Date.parse(startedAt)) / 1000
        : null;
  const endedReason = source.endedReason ?? source.call?.endedReason;
  return {
    ...ids,
    direction: directionOf(source),
    result: resultOfEndedReason(endedReason, Number.isFinite(duration) ? duration : null),
    providerCallId: source.call?.id ?? source.id,
    endedReason: endedReason ?? null,
    transcript: transcriptOf(artifact, source.transcript),
    recordingUrl:
      artifact?.recordingUrl ?? artifact?.recording?.mono?.combinedUrl ?? artifact?.recording?.stereoUrl ?? source.recordingUrl ?? null,
    extracted: (source.analysis ?? source.call?.analysis)?.structuredData,
    // The PassFail rubric a call-back's assistant asks for (vapi-call-backs.ts): "true" when screened.
    ...(screenedBy((source.analysis ?? source.call?.analysis)?.successEvaluation) ? { screened: true } : {}),
  };
}

/** Vapi's messages with the speaker renamed to ours; its plain-text transcript ("AI: …" / "User: …") otherwise. */
function transcriptOf(artifact: VapiArtifact | undefined, fallback: string | undefined): AttemptReport['transcript'] {
  const turns = (artifact?.messages ?? [])
    .filter((m) => (m.role === 'bot' || m.role === 'assistant' || m.role === 'user') && typeof m.message === 'string' && m.message.trim())
    .map((m) => ({ role: m.role === 'user' ? ('candidate' as const) : ('assistant' as const), text: m.message!.trim() }));
  if (turns.length > 0) return turns;
  const text = artifact?.transcript ?? fallback ?? '';
  return text
    .split('\n')
    .map((line) => /^(AI|Assistant|Bot|User|Customer):\s*(.+)$/i.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ role: /^(user|customer)$/i.test(m[1]) ? ('candidate' as const) : ('assistant' as const), text: m[2].trim() }));
}
