import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import { newToken } from '../infra/ids';
import { createLogger } from '../infra/logger';
import { SimulatorVoiceProvider } from '../providers/voice/simulator';
import { voiceProvider } from './providers';
import { buildOperations, buildStores } from './stores';

/** How long the simulated caller waits for the call's workflow to record the call-back before giving a name. */
const ATTEMPT_RECORDED_WITHIN_MS = 10_000;
/**
 * How long the call's workflow has to take the simulated call-back. Vapi's caller is answered within
 * CALL_BACK_DECISION_MS (operations/call-backs.ts); the simulator's has no provider's limit, and a worker busy
 * on a developer's machine is not what it plays. A workflow that still does not answer shows as `no_answer`.
 */
const SIMULATED_DECISION_MS = 10_000;

/**
 * `admin simulate:call-back --from … --to … [--caller-name …]`: a candidate's call to a workspace's voice
 * number, played through the path a Vapi `assistant-request` takes (operations/call-backs.ts): the same rules
 * decide whether anything is pending. The caller then gives a name (by default the candidate's own) to the
 * gate's identity check, as a caller answers its question a few seconds in; confirmed, the conversation
 * completes with the call's values, otherwise the gate ends it with nothing extracted (`call_back_incomplete`).
 * Its report comes SIMULATOR_CALL_SECONDS later; nothing pending says why (operations/call-backs.ts).
 */
export async function simulateCallBack(
  config: Config,
  db: Database,
  client: Client,
  call: { from: string; to: string; callerName?: string },
) {
  if (config.VOICE_PROVIDER !== 'simulator') {
    throw new Error('simulate:call-back plays a call-back through the simulator; with VOICE_PROVIDER=vapi, call the number');
  }
  const logger = createLogger('warn');
  const stores = buildStores(config, db, client);
  const operations = buildOperations(config, stores, client, logger);
  const providerCallId = `sim_in_${newToken(12)}`;
  const decision = await operations.callBacks.answer({ numberId: call.to, from: call.from, providerCallId }, SIMULATED_DECISION_MS);
  if (!('gate' in decision)) return { answered: 'nothing_pending' as const, why: decision.nothingPending };
  const { gate } = decision;
  // The workflow records the attempt right after it took the call-back; a real caller speaks seconds later.
  const until = Date.now() + ATTEMPT_RECORDED_WITHIN_MS;
  let stored = await stores.calls.get(gate.callId);
  while (stored?.attempts[gate.attempt - 1]?.provider_call_id !== providerCallId && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    stored = await stores.calls.get(gate.callId);
  }
  const name = call.callerName ?? stored?.candidate.name ?? '';
  const identity = await operations.callBacks.confirmIdentity({
    callId: gate.callId,
    attempt: gate.attempt,
    providerCallId,
    toolCallId: `${providerCallId}/identity`,
    name,
  });
  const simulator = voiceProvider(config, {
    stores,
    client,
    logger,
    report: (r) => operations.reports.take(r),
    clock: () => new Date(),
  }) as SimulatorVoiceProvider;
  await simulator.answerCallBack(gate, providerCallId, { name, confirmed: identity.confirmed ? identity.script : null });
  return {
    answered: 'call' as const,
    call_id: gate.callId,
    attempt: gate.attempt,
    first_message: gate.firstMessage,
    identity: identity.confirmed ? ('confirmed' as const) : ('not_confirmed' as const),
    report_in_seconds: config.SIMULATOR_CALL_SECONDS,
  };
}
