import type { Client } from '@temporalio/client';
import type { Config } from '../../infra/config';
import type { Database } from '../../infra/database';
import type { CallDoc, ProjectDoc, ResolvedTemplate } from '../../infra/records';
import type { WorkspaceDoc } from '../../infra/workspaces';
import { newId } from '../../infra/ids';
import { activeCallKey, claim, release } from '../../infra/claims';
import { ValidationError } from '../../shared/errors';
import { normaliseEmail, titleCase } from '../../shared/names';
import { renderTemplate, templateContext, type TemplateContext } from '../../shared/templates';
import type { CallInitiateRequest, CallInitiateResponse, CallResult, WhatsAppTemplate } from '../../shared/schemas/call-initiate';
import type { RetryPolicy } from '../../shared/retry';
import type { WorkingHours } from '../../shared/working-hours';
import { callWorkflow, callWorkflowId, type CallWorkflowInput } from '../../workflows/call';
import { CallStatus, candidateSearchAttributes } from '../../workflows/search-attributes';
import { startWorkflowOnce } from '../../infra/temporal';
import { projectUrl } from '../../shared/public-urls';
import { upsertCandidate } from '../candidates';

/** A claim on a candidate whose call was never recorded is considered abandoned after this long. */
const ABANDONED_CLAIM_MS = 60_000;

export interface CallDeps {
  db: Database;
  temporal: Client;
  config: Config;
}

/**
 * call/initiate after validation: for each candidate, in request order, upsert the candidate, claim it for
 * one new call (a candidate with an active call is refused), record the call and start its workflow.
 */
export async function initiateCalls(deps: CallDeps, workspace: WorkspaceDoc, req: CallInitiateRequest): Promise<CallInitiateResponse> {
  const project = await deps.db.projects.findOne({ workspace_id: workspace._id, ats_job_id: req.ats_job_id });
  if (!project || project.kind !== 'campaign') {
    throw new ValidationError('Request validation failed', [
      {
        path: ['ats_job_id'],
        message: project
          ? 'belongs to a project that is not a campaign project'
          : 'does not match any campaign project of this workspace; create one with POST /api/public/v1/campaigns',
      },
    ]);
  }
  const seen = new Set<string>();
  const calls = await Promise.all(
    req.candidates.map((c) => {
      const candidate = { ...c, name: titleCase(c.name), email: normaliseEmail(c.email) };
      const duplicate = seen.has(c.id);
      seen.add(c.id);
      const base = { candidate_id: c.id, name: candidate.name, email: candidate.email, phone: c.phone };
      if (duplicate) return failed(base, 'Duplicate candidate id in this request; the candidate is called once');
      return scheduleOne(deps, workspace, project, req, candidate).then(
        (outcome) => ({ ...base, ...outcome }),
        () => failed(base, 'Could not schedule the call; please retry'),
      );
    }),
  );
  return {
    success: calls.some((c) => c.status === 'success'),
    data: { project_id: project._id, project_url: projectUrl(deps.config.PUBLIC_BASE_URL, project._id), calls },
  };
}

function failed(base: Omit<CallResult, 'id' | 'status' | 'message'>, message: string): CallResult {
  return { id: null, ...base, status: 'failed', message };
}

type Candidate = CallInitiateRequest['candidates'][number];

async function scheduleOne(
  deps: CallDeps,
  workspace: WorkspaceDoc,
  project: ProjectDoc,
  req: CallInitiateRequest,
  candidate: Candidate,
): Promise<Pick<CallResult, 'id' | 'status' | 'message'>> {
  const record = await upsertCandidate(deps.db, workspace._id, project._id, candidate);
  const callId = newId('call');
  const key = activeCallKey(project._id, candidate.id);
  const holder = await claim(deps.db, key, callId);
  if (holder !== callId) {
    const active = await deps.db.calls.findOne({ _id: holder });
    if (active) {
      // A retried request after a crash between recording the call and starting it finishes the job here.
      await startCallWorkflow(deps, active);
      return { id: null, status: 'failed', message: `Candidate already has an active call in this project (${active._id}); no second call was placed` };
    }
    // The claim names a call that was never recorded: a concurrent request is recording it right now, or a
    // request died before it could. Only a claim old enough to be abandoned is released.
    const claimDoc = await deps.db.claims.findOne({ _id: key });
    if (claimDoc && Date.now() - claimDoc.created_at.getTime() < ABANDONED_CLAIM_MS) {
      return { id: null, status: 'failed', message: 'Candidate is being scheduled by a concurrent request; no second call was placed' };
    }
    await release(deps.db, key, holder);
    return scheduleOne(deps, workspace, project, req, candidate);
  }
  await deps.db.candidates.updateOne({ _id: record.id }, { $set: { active_call_id: callId } });

  const call = buildCall(callId, workspace, project, req, candidate);
  try {
    await deps.db.calls.insertOne(call);
    await startCallWorkflow(deps, call);
  } catch (err) {
    await deps.db.calls.updateOne({ _id: callId }, { $set: { status: 'failed', updated_at: new Date() } }).catch(() => undefined);
    await deps.db.candidates.updateOne({ _id: record.id, active_call_id: callId }, { $set: { active_call_id: null } });
    await release(deps.db, key, callId);
    throw err;
  }
  return {
    id: callId,
    status: 'success',
    message: call.schedule_at ? `Call scheduled for ${call.schedule_at.toISOString()}` : 'Call scheduled',
  };
}

function resolveTemplate(t: WhatsAppTemplate | undefined, ctx: TemplateContext): ResolvedTemplate | null {
  if (!t) return null;
  return {
    template_name: t.template_name,
    variables: Object.fromEntries(Object.entries(t.template_variables).map(([k, v]) => [k, renderTemplate(v, ctx)])),
  };
}

function buildCall(callId: string, workspace: WorkspaceDoc, project: ProjectDoc, req: CallInitiateRequest, c: Candidate): CallDoc {
  const ctx = templateContext(c, workspace.sender, project.company_name);
  const now = new Date();
  const whatsapp = req.call_settings?.whatsapp_notifications;
  return {
    _id: callId,
    workspace_id: workspace._id,
    project_id: project._id,
    ats_job_id: project.ats_job_id,
    candidate_id: c.id,
    candidate: { name: c.name, email: c.email, phone: c.phone, custom_fields: c.custom_fields ?? {} },
    workflow_id: callWorkflowId(callId),
    status: 'scheduled',
    first_message: renderTemplate(req.first_message, ctx),
    instructions: renderTemplate(req.instructions, ctx),
    assistant_settings: req.assistant_settings ?? null,
    extract_variables: req.extract_variables ?? [],
    call_settings: req.call_settings ?? null,
    whatsapp: { pre_call: resolveTemplate(whatsapp?.pre_call, ctx), fallback: resolveTemplate(whatsapp?.fallback, ctx) },
    schedule_at: req.schedule_at ? new Date(req.schedule_at) : null,
    scheduled_for: null,
    next_attempt_at: null,
    attempts: [],
    messages: [],
    transcript: null,
    extracted_variables: null,
    failure_reason: null,
    created_at: now,
    updated_at: now,
  };
}

/** The workflow's input, derived from the stored call alone, so a restart after a crash starts the same workflow. */
export function callWorkflowInput(call: CallDoc, outcomeTimeoutMs: number): CallWorkflowInput {
  const settings = call.call_settings;
  return {
    callId: call._id,
    scheduleAt: call.schedule_at ? call.schedule_at.getTime() : null,
    workingHours: (settings?.working_hours as WorkingHours | undefined) ?? null,
    retryPolicy: (settings?.retry_policy as RetryPolicy | undefined) ?? null,
    sendPreCall: call.whatsapp.pre_call !== null,
    sendFallback: call.whatsapp.fallback !== null,
    outcomeTimeoutMs,
  };
}

/** Starts the call's workflow under its deterministic id; starting it again is a no-op. */
export async function startCallWorkflow(deps: CallDeps, call: CallDoc): Promise<void> {
  await startWorkflowOnce(deps.temporal, callWorkflow, {
    workflowId: call.workflow_id,
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    args: [callWorkflowInput(call, deps.config.CALL_OUTCOME_TIMEOUT_MINUTES * 60_000)],
    typedSearchAttributes: [...candidateSearchAttributes(call), { key: CallStatus, value: 'scheduled' }],
    staticSummary: `Call ${call.candidate.name} for ${call.ats_job_id}`,
  });
}
