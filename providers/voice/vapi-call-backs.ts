import type { Vapi } from '@vapi-ai/server-sdk';
import type { AssistantScript, InboundCall } from './port';
import { DEFAULT_MODEL, DEFAULT_TRANSCRIBER, DEFAULT_VOICES, transientAssistant, type VapiCallOptions } from './vapi-assistant';

/**
 * A candidate calling a workspace's Vapi number back (docs/calls.md): Vapi asks our server which assistant
 * answers (`assistant-request`, at most 7.5 s before it gives up); we answer with the call's own assistant, or
 * with a short one that says nothing is pending and hangs up.
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

/** The answer that puts the call's assistant on a call-back: attempt `attempt` of the call, inbound. */
export function callBackAnswer(script: AssistantScript, opts: VapiCallOptions): { assistant: Vapi.CreateAssistantDto } {
  return { assistant: transientAssistant(script, opts, 'inbound') };
}

/** Said to a caller with nothing pending for their number here: it names no one. */
export const NOTHING_PENDING =
  'Thank you for calling. There is nothing pending for this number right now, so there is no need to call back. Goodbye.';

/**
 * A short assistant that says NOTHING_PENDING and ends the call: no server messages, so no report of it ever
 * reaches us, and nothing of the call is kept.
 */
export function nothingPendingAnswer(maxSeconds = 20): { assistant: Vapi.CreateAssistantDto } {
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
      serverMessages: [],
    } as Vapi.CreateAssistantDto,
  };
}
