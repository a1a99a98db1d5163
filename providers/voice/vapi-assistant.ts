import type { Vapi } from '@vapi-ai/server-sdk';
import type { ExtractVariable } from '../../shared/calls/schema';
import type { CallBackGate, DialRequest } from './port';

/** What a call needs from the deployment rather than the request. */
export interface VapiCallOptions {
  phoneNumberId: string;
  /** Where Vapi sends server messages for this call. */
  serverUrl: string;
  /** A Vapi credential that authenticates those messages; without it the shared secret goes in a header. */
  serverCredentialId?: string;
  webhookSecret: string;
  /** The assistant's `maxDurationSeconds`: Vapi ends the call then, which bounds the wait for its report. */
  maxCallSeconds: number;
}

/** Defaults for a request without assistant_settings: a female English voice and standard recruiter behaviour. */
export const DEFAULT_MODEL = { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.4 } as const;
export const DEFAULT_TRANSCRIBER = { provider: 'deepgram', model: 'nova-2', language: 'en' } as const;
export const DEFAULT_VOICES = { Female: 'Savannah', Male: 'Elliot' } as const;
/** Vapi's documented ranges for the start-speaking plan; larger delays are capped to them. */
const MAX_WAIT_SECONDS = 5;
const MAX_NO_PUNCTUATION_SECONDS = 3;
/** Tool names callers may give, mapped to Vapi's built-in tools that need no further configuration. */
const BUILT_IN_TOOLS: Record<string, string> = { endcall: 'endCall', end_call: 'endCall', dtmf: 'dtmf', voicemail: 'voicemail' };

/** The server messages the adapter handles; Vapi sends no others for these calls. */
export const SERVER_MESSAGES = ['end-of-call-report', 'status-update'] as const;

/** The name Vapi stores with the call: our call id and the attempt, so a lost dial can be found again. */
export function vapiCallName(callId: string, attempt: number): string {
  return `${callId}#${attempt}`;
}

/** `POST /call` with a transient assistant built from the stored call. */
export function buildCreateCall(req: DialRequest, opts: VapiCallOptions): Vapi.CreateCallDto {
  return {
    name: vapiCallName(req.callId, req.attempt),
    phoneNumberId: req.fromNumberId ?? opts.phoneNumberId,
    customer: { number: req.to, name: req.candidateName },
    assistant: transientAssistant(req, opts, 'outbound'),
  };
}

/**
 * The transient assistant of an attempt: the call's instructions, voice, transcriber and extraction schema,
 * its server for the reports, and our call id, attempt and direction in its metadata.
 */
export function transientAssistant(req: CallBackGate, opts: VapiCallOptions, direction: 'outbound' | 'inbound'): Vapi.CreateAssistantDto {
  const s = req.assistantSettings ?? {};
  const tools = (s.tools ?? []).map((t) => BUILT_IN_TOOLS[t.trim().toLowerCase()]).filter((t): t is string => Boolean(t));
  const llm = s.llm ?? DEFAULT_MODEL;
  const startSpeakingPlan =
    s.min_endpointing_delay !== undefined || s.max_endpointing_delay !== undefined
      ? {
          ...(s.min_endpointing_delay !== undefined ? { waitSeconds: Math.min(s.min_endpointing_delay, MAX_WAIT_SECONDS) } : {}),
          ...(s.max_endpointing_delay !== undefined
            ? { transcriptionEndpointingPlan: { onNoPunctuationSeconds: Math.min(s.max_endpointing_delay, MAX_NO_PUNCTUATION_SECONDS) } }
            : {}),
        }
      : undefined;
  const assistant = {
    name: 'Recruiter',
    firstMessage: req.firstMessage,
    firstMessageMode: 'assistant-speaks-first',
    model: {
      provider: llm.provider,
      model: llm.model,
      temperature: llm.temperature,
      messages: [{ role: 'system', content: req.instructions }],
      ...(tools.length > 0 ? { tools: [...new Set(tools)].map((type) => ({ type })) } : {}),
    },
    voice: s.tts
      ? { provider: s.tts.provider, voiceId: s.tts.id, model: s.tts.model, ...(s.tts.speed !== undefined ? { speed: s.tts.speed } : {}) }
      : { provider: 'vapi', voiceId: DEFAULT_VOICES[s.gender ?? 'Female'] },
    transcriber: s.language
      ? { provider: s.language.provider, language: s.language.code, ...(s.language.model ? { model: s.language.model } : {}) }
      : { ...DEFAULT_TRANSCRIBER },
    // Vapi has one built-in background sound (office); a keyboard sound or none is played as silence.
    ...(s.effect ? { backgroundSound: s.effect.name === 'Office' ? 'office' : 'off' } : {}),
    ...(startSpeakingPlan ? { startSpeakingPlan } : {}),
    analysisPlan:
      req.extractVariables.length > 0
        ? { structuredDataPlan: { enabled: true, schema: structuredDataSchema(req.extractVariables) } }
        : undefined,
    maxDurationSeconds: opts.maxCallSeconds,
    serverMessages: [...SERVER_MESSAGES],
    server: serverOf(opts),
    metadata: { call_id: req.callId, attempt: req.attempt, direction },
  };
  if (!assistant.analysisPlan) delete assistant.analysisPlan;
  return assistant as Vapi.CreateAssistantDto;
}

/** Where Vapi sends an assistant's server messages and tool calls, and how it proves they are its own. */
export function serverOf(opts: VapiCallOptions): Vapi.Server {
  return opts.serverCredentialId
    ? { url: opts.serverUrl, credentialId: opts.serverCredentialId }
    : { url: opts.serverUrl, headers: { 'x-vapi-secret': opts.webhookSecret } };
}

/** The JSON schema Vapi fills from the conversation: one property per extract variable, none required. */
export function structuredDataSchema(variables: ExtractVariable[]): Vapi.JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(variables.map((v) => [v.label, propertySchema(v)])),
  };
}

function propertySchema(v: ExtractVariable): Vapi.JsonSchema {
  const description = v.format_example ? `${v.description} (format example: ${v.format_example})` : v.description;
  switch (v.type) {
    case 'string':
      return { type: 'string', description };
    case 'single_select':
      return { type: 'string', enum: [...(v.choices ?? [])], description };
    case 'boolean':
      return { type: 'boolean', description };
    case 'integer':
      return { type: 'integer', description };
    case 'number':
      return { type: 'number', description };
    case 'array':
      return { type: 'array', items: { type: 'string' }, description };
    case 'date':
      return { type: 'string', format: 'date', description };
    case 'datetime':
      return { type: 'string', format: 'date-time', description };
  }
}
