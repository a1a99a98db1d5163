import type { Client } from '@temporalio/client';
import type { Config } from '../infra/config';
import type { Database } from '../infra/database';
import { newToken } from '../infra/ids';
import { createLogger } from '../infra/logger';
import { SimulatorVoiceProvider } from '../providers/voice/simulator';
import { voiceProvider } from './providers';
import { buildOperations, buildStores } from './stores';

/**
 * `admin simulate:call-back --from … --to …`: a candidate's call to a workspace's voice number, played through
 * the path a Vapi `assistant-request` takes (operations/call-backs.ts), then answered as the simulator's
 * candidate would: the conversation completes, and its report comes SIMULATOR_CALL_SECONDS later.
 */
export async function simulateCallBack(config: Config, db: Database, client: Client, call: { from: string; to: string }) {
  if (config.VOICE_PROVIDER !== 'simulator') {
    throw new Error('simulate:call-back plays a call-back through the simulator; with VOICE_PROVIDER=vapi, call the number');
  }
  const logger = createLogger('warn');
  const stores = buildStores(config, db, client);
  const operations = buildOperations(config, stores, client, logger);
  const providerCallId = `sim_in_${newToken(12)}`;
  const script = await operations.callBacks.answer({ numberId: call.to, from: call.from, providerCallId });
  if (!script) return { answered: 'nothing_pending' as const };
  const simulator = voiceProvider(config, {
    stores,
    client,
    logger,
    report: (r) => operations.reports.take(r),
    clock: () => new Date(),
  }) as SimulatorVoiceProvider;
  await simulator.answerCallBack(script, providerCallId);
  return {
    answered: 'call' as const,
    call_id: script.callId,
    attempt: script.attempt,
    first_message: script.firstMessage,
    report_in_seconds: config.SIMULATOR_CALL_SECONDS,
  };
}
