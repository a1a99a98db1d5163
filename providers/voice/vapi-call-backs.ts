import type { Vapi } from '@vapi-ai/server-sdk';
import type { CallBackGate, InboundCall } from './port';
import {
  DEFAULT_MODEL,
  DEFAULT_TRANSCRIBER,
  DEFAULT_VOICES,
  SERVER_MESSAGES,
  serverOf,
  transientAssistant,
  type VapiCallOptions,
} from './vapi-assistant';
import { IDENTITY_TOOL } from '../../shared/calls/call-backs';

/**
 * A candidate calling a workspace's Vapi number back (docs/calls.md): Vapi asks our server which assistant
 * answers (`assistant-request`, at most 7.5 s before it gives up); we answer with the call's own assistant, or
 * with a short one that says nothing is pending and hangs up. The call's assistant starts as a gate: it names
 * the company, asks the caller's full name and calls IDENTITY_TOOL with it, a function tool whose `tool-calls`
 * message our server answers (identityToolCallsOf, identityToolAnswer): the call's script only for the
 * candidate's own name, else the instruction to end the call.
 */

export type { VapiCallOptions };

type Loose = Record<string, unknown> | undefined;
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The inbound call an `assistant-request` asks about; null when it is not one (an outbound or web call). */
export function inboundCallOf(message: Record<string, unknown>): InboundCall | null {
  if (message.type !== 'assistant-request') return null;
  const call = message.call as Loose;
  if (call?.type !== 'inboundPhoneCall') return null;
  const numberId = text(call.phoneNumberId) ?? text((message.phoneNumber as Loose)?.id);
  const from = text((call.customer as Loose)?.number) ?? text((message.customer as Loose)?.number);
  const providerCallId = text(call.id);
  return numberId && from && providerCallId ? { numberId, from, providerCallId } : null;
}

/** The answer that puts the call's gate on a call-back: attempt `attempt` of the call, inbound. */
export function callBackAnswer(gate: CallBackGate, opts: VapiCallOptions): { assistant: Vapi.CreateAssistantDto } {
  const assistant = transientAssistant(gate, opts, 'inbound') as Vapi.CreateAssistantDto & { model: { tools?: unknown[] } };
  const server = serverOf(opts);
  const identityTool = {
    type: 'function' as const,
    function: {
      name: IDENTITY_TOOL,
      description: "Checks the caller's full name before anything about the call may be said.",
      parameters: {
        type: 'object',
        properties: { full_name: { type: 'string', description: 'The full name the caller gave, as they said it.' } },
        required: ['full_name'],
      },
    },
    server,
    messages: [{ type: 'request-start' as const, content: 'One moment, please.' }],
  } satisfies Vapi.CreateFunctionToolDto & { type: 'function' };
  const tools = (assistant.model.tools ?? []).filter((t) => (t as { type?: string }).type !== 'endCall');
  assistant.model.tools = [...tools, identityTool, { type: 'endCall' }] as typeof assistant.model.tools;
  assistant.serverMessages = [...SERVER_MESSAGES, 'tool-calls'] as Vapi.CreateAssistantDto['serverMessages'];
  // Whether the screening happened, for a call that extracts nothing (and beside the extraction of one that does).
  assistant.analysisPlan = {
    ...assistant.analysisPlan,
    successEvaluationPlan: {
      enabled: true,
      rubric: 'PassFail',
      messages: [{ role: 'system', content: SCREENED_RUBRIC }],
    },
  };
  return { assistant };
}

/** What the call-back's success evaluation judges: the identity confirmed, and the screening held. */
const SCREENED_RUBRIC =
  'Answer true only if the identity tool confirmed the caller and the caller then answered the screening the instructions asked for; otherwise false.';

/** One call of the identity tool in a `tool-calls` message: its id, and the name the caller gave. */
export interface IdentityToolCall {
  toolCallId: string;
  name: string;
}

/** The identity tool's calls in a `tool-calls` message (arguments as an object or as JSON text); others are not ours. */
export function identityToolCallsOf(message: Record<string, unknown>): IdentityToolCall[] {
  const list = Array.isArray(message.toolCallList) ? (message.toolCallList as Array<Record<string, unknown>>) : [];
  return list.flatMap((call) => {
    const fn = call?.function as Loose;
    if (fn?.name !== IDENTITY_TOOL || typeof call.id !== 'string') return [];
    let args = fn.arguments as unknown;
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
      } catch {
        args = {};
      }
    }
    const name = text((args as Loose)?.full_name);
    return [{ toolCallId: call.id, name: name ?? '' }];
  });
}

/**
 * The identity tool's result, as the assistant reads it: with the candidate's name confirmed, the attempt's
 * script (what to say first, then its instructions); otherwise the instruction to end the call without
 * saying anything of it.
 */
export function identityToolAnswer(call: IdentityToolCall, answer: { opening: string; instructions: string } | null) {
  const result = answer
    ? `Confirmed: the caller is the candidate. Say next: "${answer.opening}" Then follow these instructions for the rest of the call: ${answer.instructions}`
    : 'Not confirmed. Say that you cannot continue this call and that the caller may be contacted again, thank them, and end the call with the endCall tool. Say nothing about any person, job or earlier call.';
  return { name: IDENTITY_TOOL, toolCallId: call.toolCallId, result };
}

/** Said to a caller with nothing pending for their number here: it names no one. */
export const NOTHING_PENDING =
  'Thank you for calling. There is nothing pending for this number right now, so there is no need to call back. Goodbye.';

/** The metadata of the assistant that answers a call about nothing pending: it names no one. */
export const NOTHING_PENDING_METADATA = { call_back: 'nothing_pending' } as const;

/** Whether a server message is about a call answered "nothing pending" (its end-of-call report). */
export function isNothingPending(message: {
  call?: { assistant?: { metadata?: Record<string, unknown> } };
  assistant?: { metadata?: Record<string, unknown> };
}): boolean {
  const meta = message.assistant?.metadata ?? message.call?.assistant?.metadata;
  return meta?.call_back === NOTHING_PENDING_METADATA.call_back;
}

/**
 * A short assistant that says NOTHING_PENDING and ends the call. Nothing of the call is kept at the provider:
 * no recording and no transcript (its artifact plan), and its one server message, the end-of-call report,
 * only has its copy deleted (operations/call-backs.ts); it reaches no call of ours.
 */
export function nothingPendingAnswer(opts: VapiCallOptions, maxSeconds = 20): { assistant: Vapi.CreateAssistantDto } {
  return {
    assistant: {
      name: 'Nothing pending',
      firstMessage: NOTHING_PENDING,
      firstMessageMode: 'assistant-speaks-first',
      model: {
        ...DEFAULT_MODEL,
        messages: [{ role: 'system', content: 'You have said everything there is to say. End the call now, without saying more.' }],
        tools: [{ type: 'endCall' }],
      },
      voice: { provider: 'vapi', voiceId: DEFAULT_VOICES.Female },
      transcriber: { ...DEFAULT_TRANSCRIBER },
      endCallPhrases: ['Goodbye'],
      maxDurationSeconds: maxSeconds,
      artifactPlan: { recordingEnabled: false, transcriptPlan: { enabled: false } },
      serverMessages: ['end-of-call-report'],
      server: serverOf(opts),
      metadata: { ...NOTHING_PENDING_METADATA },
    } as Vapi.CreateAssistantDto,
  };
}
