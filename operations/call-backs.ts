import type { CallDoc } from '../infra/documents/calls';
import { ownNumber } from '../infra/documents/workspaces';
import { normalisePhone } from '../infra/people';
import type { OperationDeps } from './deps';
import { callScript, scriptSources } from './call-scripts';
import type { AssistantScript } from '../providers/voice/port';
import type { InboundCall } from '../providers/voice/port';

/** How long the call's workflow has to take a call-back: Vapi gives up on an answer after 7.5 s; we answer within 3. */
export const CALL_BACK_DECISION_MS = 2_000;

/**
 * A candidate's call-back (docs/calls.md): the number called names the workspace (its own, given by the
 * operator; the service's shared number stands for every workspace without one that knows the caller), and
 * in it the caller's open call, the most recent first: one shown `scheduled`, waiting for its schedule or a
 * retry, not erased, and whose phone the workspace's suppression list does not refuse for voice. Its workflow
 * takes the call-back as the call's next attempt (workflows/call-state.ts), and the script of that attempt is
 * the answer. Null: nothing is pending for this caller at this number, and nothing is recorded.
 */
export function callBackAnswering({ stores, workflows, config, logger }: OperationDeps) {
  const log = logger.child({ component: 'call-backs' });

  /** The workspaces whose calls a call to this number may be about. */
  async function workspacesOf(call: InboundCall): Promise<string[]> {
    const owner = await stores.workspaces.ofNumber('voice', call.numberId);
    if (owner) return [owner];
    if (!config.VAPI_PHONE_NUMBER_ID || call.numberId !== config.VAPI_PHONE_NUMBER_ID) return [];
    const known = await stores.candidates.workspacesOfPhone(normalisePhone(call.from));
    const workspaces = await Promise.all(known.map((id) => stores.workspaces.get(id)));
    return known.filter((_, i) => workspaces[i] && !ownNumber(workspaces[i], 'voice'));
  }

  /** The workspace's calls to this phone that wait for a dial, the most recent first. */
  async function openCalls(workspaceId: string, phone: string): Promise<CallDoc[]> {
    const workspace = await stores.workspaces.get(workspaceId);
    if (!workspace || (await stores.suppressions.channelsFor(workspace, { phone })).has('voice')) return [];
    const { calls: ids } = await stores.candidates.findPerson(workspaceId, { phone });
    const calls = await Promise.all(ids.map((id) => stores.calls.get(id)));
    return calls
      .filter((c): c is CallDoc => !!c && c.workspace_id === workspaceId && c.status === 'scheduled' && !c.erased_at)
      .filter((c) => normalisePhone(c.candidate.phone) === phone)
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
  }

  return {
    async answer(call: InboundCall): Promise<(AssistantScript & { workspaceId: string }) | null> {
      const phone = normalisePhone(call.from);
      const until = Date.now() + CALL_BACK_DECISION_MS;
      for (const workspaceId of await workspacesOf(call)) {
        for (const open of await openCalls(workspaceId, phone)) {
          const taken = await workflows.callBack(open._id, call.providerCallId, Math.max(0, until - Date.now()));
          if (!taken || !('attempt' in taken)) continue;
          log.info({ callId: open._id, attempt: taken.attempt }, 'call-back taken as an attempt of its call');
          return { ...callScript(open, await scriptSources(stores, open), taken.attempt, 'inbound'), workspaceId };
        }
      }
      log.info({ provider_call_id: call.providerCallId }, 'call-back with nothing pending');
      return null;
    },
  };
}

export type CallBackAnswering = ReturnType<typeof callBackAnswering>;
