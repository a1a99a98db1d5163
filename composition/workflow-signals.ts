import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { startEach, startOptions, whileReachable } from '../infra/temporal';
import type { Logger } from '../infra/logger';
import type { WorkflowPort } from '../operations/deps';
import { workflowStart } from '../shared/workflow-starts';
import { attemptResultSignal, callWorkflowId, cancelCallSignal } from '../workflows/calls';
import { callStart } from '../workflows/call-start';
import { callBackAnswerQuery, callBackSignal } from '../workflows/call-backs';
import { optOutWorkflow, optOutWorkflowId } from '../workflows/suppressions';
import { providerDeletionWorkflow } from '../workflows/erasure';
import { keyedId } from '../infra/ids';

/**
 * The use cases' workflow port (operations/deps.ts), through Temporal's client: the one place a call's cancel,
 * an attempt's result and a suppression's or an erasure's stops reach the workflows.
 */
export function workflowSignals(client: Client, taskQueue: string, logger: Logger): WorkflowPort {
  const closed = (err: unknown) => err instanceof WorkflowNotFoundError;
  return {
    async cancelCall(call, reason) {
      const start = callStart(call);
      try {
        await whileReachable(client, () =>
          client.workflow.signalWithStart(start.workflowType, {
            ...startOptions(start, taskQueue),
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
            signal: cancelCallSignal,
            signalArgs: [reason],
          }),
        );
        return true;
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw err;
      }
    },

    async attemptEnded({ callId, attempt, result }) {
      try {
        await whileReachable(client, () =>
          client.workflow.getHandle(callWorkflowId(callId)).signal(attemptResultSignal, { attempt, result }),
        );
        return true;
      } catch (err) {
        if (!closed(err)) throw err;
        return false;
      }
    },

    async stopCallsOf(ids) {
      const start = workflowStart(optOutWorkflow, {
        workflowId: optOutWorkflowId(ids[0]),
        args: [ids],
        searchAttributes: [],
        summary: `Suppressions: stop the calls of ${ids.length} new ${ids.length === 1 ? 'entry' : 'entries'}`,
      });
      await whileReachable(client, () => startEach(client, taskQueue, [start]));
    },

    async deleteProviderCopies(calls) {
      if (calls.length === 0) return;
      const start = workflowStart(providerDeletionWorkflow, {
        // One per set of copies: an erasure repeated after a failure starts nothing twice.
        workflowId: `provider-deletions-${keyedId('pd', ...calls.map((c) => `${c.provider}:${c.providerCallId}`))}`,
        args: [calls],
        searchAttributes: [],
        summary: `Erasure: delete ${calls.length} ${calls.length === 1 ? 'call' : 'calls'} at the voice provider`,
      });
      await whileReachable(client, () => startEach(client, taskQueue, [start]));
    },

    async callBack(callId, providerCallId, withinMs) {
      const handle = client.workflow.getHandle(callWorkflowId(callId));
      const until = Date.now() + withinMs;
      // One deadline for the signal and every query: each is raced against it.
      const deadline = new Promise<null>((resolve) => setTimeout(() => resolve(null), withinMs).unref());
      const inTime = <T>(p: Promise<T>) => Promise.race([p, deadline]);
      try {
        await inTime(handle.signal(callBackSignal, { providerCallId, answerBy: until }));
        // The workflow answers at its next task: asked until then (a few tens of ms when its worker is up).
        while (Date.now() < until) {
          const answer = await inTime(handle.query(callBackAnswerQuery, providerCallId));
          if (answer) return answer;
          await new Promise((r) => setTimeout(r, 25));
        }
        return null;
      } catch (err) {
        if (closed(err)) return null;
        logger.warn({ callId, err: (err as Error).message }, 'call-back not taken: the call workflow could not be asked');
        return null;
      }
    },

    async endInterview(interview) {
      await client.workflow
        .getHandle(interview.workflow_id)
        .terminate('The candidate was erased')
        .catch((err: unknown) => {
          if (!closed(err)) throw err;
          logger.debug({ interviewId: interview._id }, 'interview workflow closed already');
        });
    },
  };
}
