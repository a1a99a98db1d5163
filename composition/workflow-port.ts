import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { startEach, startOptions, whileReachable } from '../infra/temporal';
import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import type { WorkflowPort } from '../operations/deps';
import { callWorkflowId, workflowStart } from '../shared/workflow-starts';
import {
  attemptResultSignal,
  callBackUpdate,
  callBackWithdrawnSignal,
  cancelCallSignal,
  cancelOutcomeUpdate,
  candidateChoiceUpdate,
} from '../workflows/calls';
import { CANDIDATE_REFUSALS, type CandidateChoiceAnswer, type CandidateRefusal } from '../shared/calls/candidate-link';
import { callStart } from '../workflows/call-start';
import { optOutWorkflow, optOutWorkflowId } from '../workflows/suppressions';
import { erasureWorkflow, erasureWorkflowId, providerDeletionWorkflow } from '../workflows/erasure';
import { keyedId } from '../infra/ids';
import { interviewStart } from '../workflows/interviews';
import { projectSearchAttributes } from '../workflows/search-attributes';
import { startAll } from './workflow-starts';
import { interviewSignaller } from './interview-signals';
import { webhookSignaller } from './webhook-signals';
import { partnerSignaller } from './partner-signals';
import { searchAttributesCheck } from './search-attributes';

/**
 * How much longer than a call-back's decision time its answer is waited for: the time an answer the workflow
 * decided in time takes to come back through the server, and, when none comes, the time its withdrawal has.
 */
export const CALL_BACK_ANSWER_TRAVEL_MS = 1_500;

/**
 * The workflow port (operations/deps.ts), through Temporal's client: the one place the API, the pages and the
 * use cases reach the workflows (starts, a call's cancel, an attempt's result, a call-back, a suppression's or
 * an erasure's stops, an interview's changes, a delivery's retry, readiness).
 */
export function workflowPort(
  client: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'TEMPORAL_NAMESPACE'>,
  logger: Logger,
): WorkflowPort {
  const taskQueue = config.TEMPORAL_TASK_QUEUE;
  const closed = (err: unknown) => err instanceof WorkflowNotFoundError;
  const interviewChanged = {
    reopening: interviewSignaller(client, taskQueue, { reopen: true }),
    keepingClosed: interviewSignaller(client, taskQueue, { reopen: false }),
  };
  const batch = (request: { summary: string; project: Parameters<typeof projectSearchAttributes>[0] } | null) => ({
    summary: request?.summary ?? '',
    searchAttributes: request ? projectSearchAttributes(request.project) : [],
  });
  /**
   * An Update's answer, or null when it did not come within `withinMs` (the workflow's worker is down or busy)
   * or the workflow has closed. The Update itself is left to the server, which gives it to the workflow when a
   * worker takes its next task: the workflow may still take it after this gave up, so what it asks must be safe
   * to take late (a call-back is withdrawn: callBack below).
   */
  async function answerWithin<R>(ask: () => Promise<R>, withinMs: number, what: Record<string, unknown>): Promise<R | null> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), withinMs)));
    const asked = ask();
    asked.catch(() => undefined);
    try {
      return await Promise.race([asked, deadline]);
    } catch (err) {
      if (!closed(err)) logger.warn({ ...what, err: (err as Error).message }, 'the workflow could not be asked');
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    startCalls: (calls, request) => startAll(client, taskQueue, calls.map(callStart), batch(request)),
    startInvitations: (interviews, request) => startAll(client, taskQueue, interviews.map(interviewStart), batch(request)),
    interviewChanged: (interview, { reopen }) => (reopen ? interviewChanged.reopening : interviewChanged.keepingClosed)(interview),
    retryDelivery: webhookSignaller(client, taskQueue).retry,
    searchAttributesReady: searchAttributesCheck(client, config.TEMPORAL_NAMESPACE, logger),
    async namespaceReachable() {
      await client.connection.withDeadline(Date.now() + 2_000, () =>
        client.connection.workflowService.describeNamespace({ namespace: config.TEMPORAL_NAMESPACE }),
      );
    },

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

    async erase(erasureId, withinMs) {
      const start = workflowStart(erasureWorkflow, {
        workflowId: erasureWorkflowId(erasureId),
        args: [erasureId],
        searchAttributes: [],
        summary: 'Erasure of a person',
      });
      await whileReachable(client, () => startEach(client, taskQueue, [start]));
      const handle = client.workflow.getHandle<typeof erasureWorkflow>(erasureWorkflowId(erasureId));
      // The wait for the result is given up at the deadline, not left polling until the erasure ends.
      const abort = new AbortController();
      try {
        return await answerWithin(() => client.connection.withAbortSignal(abort.signal, () => handle.result()), withinMs, { erasureId });
      } finally {
        abort.abort();
      }
    },

    cancelOutcome(callId, until, withinMs) {
      const handle = client.workflow.getHandle(callWorkflowId(callId));
      return answerWithin(() => handle.executeUpdate(cancelOutcomeUpdate, { args: [until] }), withinMs, { callId });
    },

    async callBack(callId, providerCallId, withinMs) {
      const handle = client.workflow.getHandle(callWorkflowId(callId));
      // The inbound call's own Update id: the same call-back asked twice is one Update, answered once.
      const ask = () =>
        handle.executeUpdate(callBackUpdate, {
          args: [{ providerCallId, answerBy: Date.now() + withinMs }],
          updateId: `call-back-${providerCallId}`,
        });
      // The workflow decides by its answerBy, in its own time; the answer of one decided in time still has its
      // way back to make, and is waited for a little longer.
      const answer = await answerWithin(ask, withinMs + CALL_BACK_ANSWER_TRAVEL_MS, { callId });
      if (answer) return answer;
      // No answer: the caller hears that nothing is pending. A workflow that took the call-back anyway, its answer
      // delivered after this gave up (a CI run under load saw it), is told, so no attempt waits for that caller.
      await answerWithin(() => handle.signal(callBackWithdrawnSignal, providerCallId), CALL_BACK_ANSWER_TRAVEL_MS, { callId });
      return null;
    },

    candidateChoice(callId, choice, withinMs) {
      const handle = client.workflow.getHandle(callWorkflowId(callId));
      const ask = async (): Promise<CandidateChoiceAnswer> => {
        try {
          return await handle.executeUpdate(candidateChoiceUpdate, { args: [choice] });
        } catch (err) {
          // Refused by its validator, which names why; a workflow that has closed has ended its call.
          const why = err instanceof WorkflowUpdateFailedError ? err.cause?.message : undefined;
          if (why && (CANDIDATE_REFUSALS as readonly string[]).includes(why)) return { taken: false, refused: why as CandidateRefusal };
          if (closed(err)) return { taken: false, refused: 'ended' };
          throw err;
        }
      };
      // Asked once: the page's wait and the Update's own end are two views of it.
      const asked = ask();
      const settled = asked.catch((err: Error) => {
        logger.warn({ callId, err: err.message }, 'the workflow could not be asked');
        return null;
      });
      return { answer: answerWithin(() => settled, withinMs, { callId }), settled };
    },

    partnerChanged: partnerSignaller(client, taskQueue),

    async endInterview(interview, why = 'The candidate was erased') {
      await client.workflow
        .getHandle(interview.workflow_id)
        .terminate(why)
        .catch((err: unknown) => {
          if (!closed(err)) throw err;
          logger.debug({ interviewId: interview._id }, 'interview workflow closed already');
        });
    },
  };
}
