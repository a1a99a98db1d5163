import type { OperationDeps } from './deps';
import type { FileCandidates } from './candidates';
import type { ProjectDoc } from '../infra/documents/projects';
import { callLinkToken, type CallDoc, type ResolvedTemplate } from '../infra/documents/calls';
import type { PartnerLink } from '../infra/documents/partners';
import { defaultTimezone, type WorkspaceDoc } from '../infra/documents/workspaces';
import { candidateZones } from '../infra/phone-zones';
import { newId } from '../infra/ids';
import { normaliseEmail } from '../infra/people';
import { ValidationError } from '../shared/errors';
import { holdAt } from '../infra/fault-points';
import { titleCase } from '../shared/names';
import { renderTemplate, templateContext, type TemplateContext } from '../shared/template-variables';
import type { CallInitiateRequest, CallInitiateResponse, CallResult, WhatsAppTemplate } from '../shared/calls/schema';
import { callWorkflowId } from '../shared/workflow-starts';
import { startOrTakeBack } from './workflow-starts';
import { callLinkUrl, projectUrl } from '../shared/public-urls';

/** A claim on a candidate whose call was never recorded is considered abandoned after this long. */
const ABANDONED_CLAIM_MS = 60_000;

/** What a bulk request runs on: the stores, the workflow port, and the filing of its candidates. */
type CallDeps = OperationDeps & { fileCandidates: FileCandidates };

type Candidate = CallInitiateRequest['candidates'][number];
/** What the response says of one entry of the request. */
type EntryResult = Pick<CallResult, 'id' | 'status' | 'message'>;

const MESSAGES = {
  duplicateId: 'Duplicate candidate id in this request; the candidate is called once',
  optedOut: "The candidate opted out of calls: the phone or email is in the workspace's suppression list (voice); no call was placed",
  noConsent:
    'This workspace calls only candidates with consent to AI voice calls (voice_consent_required): the candidate has no consent; no call was placed',
  concurrent: 'Candidate is being scheduled by a concurrent request; no second call was placed',
  retry: 'Could not schedule the call; please retry',
  active: (callId: string) => `Candidate already has an active call in this project (${callId}); no second call was placed`,
} as const;

/**
 * call/initiate after validation. The whole batch takes a fixed number of database round trips, whatever its
 * size: one claim per candidate (the unique `_id` lets one call per candidate be active), then the candidates
 * and the calls written together, then one workflow start (docs/bulk-requests.md). An entry says `success`
 * only once its workflow is sure to start, so the call happens even if every process dies right after.
 */
export async function initiateCalls(
  deps: CallDeps,
  workspace: Readonly<WorkspaceDoc>,
  req: CallInitiateRequest & PartnerLink,
): Promise<CallInitiateResponse> {
  const project = await deps.stores.projects.ofJob(workspace._id, req.ats_job_id);
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
  const candidates = req.candidates.map((c) => ({ ...c, name: titleCase(c.name), email: normaliseEmail(c.email) }));
  // The first entry of an id is the one scheduled; a later entry with the same id is the duplicate.
  const firstAt = new Map<string, number>();
  candidates.forEach((c, i) => firstAt.has(c.id) || firstAt.set(c.id, i));
  const firsts = [...firstAt.values()].map((i) => candidates[i]);
  // Consent where the workspace requires it, then the suppression list: a candidate refused by either gets no
  // call, no claim and no document.
  const consentRequired = workspace.settings?.voice_consent_required === true;
  const unconsented = (c: Candidate) => consentRequired && !c.consent;
  const refused = await deps.stores.suppressions.refuses(workspace, firsts, 'voice');
  const callable = firsts.filter((c, n) => !refused[n] && !unconsented(c));
  const scheduled = callable.length > 0 ? await scheduleAll(deps, workspace, project, req, callable, 0) : [];
  const byCandidate = new Map<string, EntryResult>(callable.map((c, n) => [c.id, scheduled[n]]));
  firsts.forEach((c, n) => refused[n] && byCandidate.set(c.id, failed(MESSAGES.optedOut)));
  firsts.forEach((c) => unconsented(c) && byCandidate.set(c.id, failed(MESSAGES.noConsent)));
  await holdAt(deps.config, 'call-initiate:before-response', deps.logger);
  const calls = candidates.map((c, i): CallResult => {
    const result = firstAt.get(c.id) === i ? byCandidate.get(c.id)! : failed(MESSAGES.duplicateId);
    return {
      id: result.id,
      candidate_id: c.id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      status: result.status,
      message: result.message,
    };
  });
  return {
    success: calls.some((c) => c.status === 'success'),
    data: { project_id: project._id, project_url: projectUrl(deps.config.PUBLIC_BASE_URL, project._id), calls },
  };
}

function failed(message: string): EntryResult {
  return { id: null, status: 'failed', message };
}

async function scheduleAll(
  deps: CallDeps,
  ws: Readonly<WorkspaceDoc>,
  project: Readonly<ProjectDoc>,
  req: CallInitiateRequest & PartnerLink,
  cands: Candidate[],
  depth: number,
): Promise<EntryResult[]> {
  const { stores, fileCandidates } = deps;
  const calls = cands.map((c) => buildCall(newId('call'), ws, project, req, c, deps.config.PUBLIC_BASE_URL));
  const claims = await stores.calls.claimCandidates(calls);
  const won = calls.flatMap((call, i) => (claims[i] === 'written' ? [i] : []));
  const results = new Array<EntryResult>(cands.length);

  const winners = async () => {
    // The candidates, where an erasure or a suppression finds the calls, filed before they start.
    const [filed, written] = await Promise.allSettled([
      fileCandidates(
        ws._id,
        project._id,
        won.map((i) => cands[i]),
        { kind: 'calls', ids: won.map((i) => calls[i]._id) },
      ),
      stores.calls.create(won.map((i) => calls[i])),
    ]);
    if (filed.status === 'rejected' || written.status === 'rejected') {
      // An outage (a 503) or a fault (a 500): what the entries wrote is taken back, so that the retry neither
      // waits out a claim nor starts a recorded call whose candidate was never filed, where an erasure would not
      // find it. Both writes have settled first, so none lands after its take-back. Not waited for: the
      // database that failed them is likely gone, and the 503 is due within 5 s.
      void Promise.all(won.map((i) => abandon(deps, calls[i])));
      throw filed.status === 'rejected' ? filed.reason : (written as PromiseRejectedResult).reason;
    }
    const [candidates, callWrites] = [filed.value, written.value];
    const ready = candidates.indexed ? won.filter((_, n) => candidates.saved[n].write === 'written' && callWrites[n] === 'written') : [];
    await holdAt(deps.config, 'call-initiate:after-records', deps.logger);
    const request = { summary: `call/initiate: ${ready.length} calls for ${project.ats_job_id}`, project };
    const started = await startOrTakeBack(
      deps,
      () =>
        deps.workflows.startCalls(
          ready.map((i) => calls[i]),
          request,
        ),
      { summary: request.summary, workflows: ready.length },
      () => Promise.all(won.map((i) => abandon(deps, calls[i]))),
    );
    for (const i of won) {
      results[i] =
        started && ready.includes(i)
          ? { id: calls[i]._id, status: 'success', message: scheduledMessage(calls[i]) }
          : failed(MESSAGES.retry);
    }
    // Entries whose documents were not both written are taken back (all of them already when the start failed).
    if (started) await Promise.all(won.filter((i) => !ready.includes(i)).map((i) => abandon(deps, calls[i])));
  };
  const others = () =>
    Promise.all(
      calls.map(async (call, i) => {
        if (claims[i] === 'written') return;
        // The claim may or may not have been written: give it back if it is ours, and ask for a retry.
        if (claims[i] === 'error') {
          await abandon(deps, call);
          results[i] = failed(MESSAGES.retry);
          return;
        }
        results[i] = await resolveHeld(deps, call, depth).then((held) =>
          held === 'free' ? scheduleAll(deps, ws, project, req, [cands[i]], depth + 1).then(([o]) => o) : held,
        );
      }),
    );
  await Promise.all([winners(), others()]);
  return results;
}

/**
 * The candidate's claim is held. By a recorded call: its workflow is started in case an earlier request
 * stopped before starting it (a no-op otherwise), and the entry fails naming it. By a call never recorded: a
 * concurrent request is recording it, or one died before it could; only a claim old enough is taken over.
 */
async function resolveHeld(deps: CallDeps, call: CallDoc, depth: number): Promise<EntryResult | 'free'> {
  const held = await deps.stores.calls.activeCallOf(call.project_id, call.candidate_id);
  if (!held) return depth === 0 ? 'free' : failed(MESSAGES.concurrent);
  const active = await deps.stores.calls.get(held.callId);
  if (active) {
    await startCallWorkflow(deps, active).catch((err: unknown) =>
      deps.logger.error({ err, callId: active._id }, 'active call could not be restarted'),
    );
    return failed(MESSAGES.active(active._id));
  }
  if (Date.now() - held.since.getTime() < ABANDONED_CLAIM_MS || depth > 0) return failed(MESSAGES.concurrent);
  await deps.stores.calls.freeCandidate({ _id: held.callId, project_id: call.project_id, candidate_id: call.candidate_id });
  return 'free';
}

/**
 * How long a request waits for an entry's cleanup. In a database outage each step of it waits out server
 * selection (3 s) after the write that failed already had, and the request's 503 is due within 5 s.
 */
const ABANDON_WAIT_MS = 1_000;

/**
 * Undoes what a failed entry may have written, so nothing blocks the retry: the call, then the claim. The
 * request waits for it up to ABANDON_WAIT_MS, and the rest goes on after the answer: it touches only this
 * entry's own documents (a call id new to this request, and the claim only while this call holds it), so it
 * never undoes a retry's.
 */
async function abandon({ stores, logger }: CallDeps, call: CallDoc): Promise<void> {
  const cleanup = (async () => {
    try {
      await stores.calls.takeBack([call]);
      await stores.calls.freeCandidate(call);
    } catch (err) {
      // What is left is a claim without a call, which the next request takes over once it is old enough.
      logger.error({ err, callId: call._id }, 'an unscheduled call could not be cleaned up');
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([cleanup, new Promise<void>((resolve) => (timer = setTimeout(resolve, ABANDON_WAIT_MS)))]);
  clearTimeout(timer);
}

function scheduledMessage(call: CallDoc): string {
  return call.schedule_at ? `Call scheduled for ${call.schedule_at.toISOString()}` : 'Call scheduled';
}

function resolveTemplate(t: WhatsAppTemplate | undefined, ctx: TemplateContext): ResolvedTemplate | null {
  if (!t) return null;
  return {
    template_name: t.template_name,
    variables: Object.fromEntries(Object.entries(t.template_variables).map(([k, v]) => [k, renderTemplate(v, ctx)])),
  };
}

function buildCall(
  callId: string,
  workspace: Readonly<WorkspaceDoc>,
  project: Readonly<ProjectDoc>,
  req: CallInitiateRequest & PartnerLink,
  c: Candidate,
  publicBaseUrl: string,
): CallDoc {
  const ctx = templateContext(c, workspace.sender, project.company_name);
  const now = new Date();
  const whatsapp = req.call_settings?.whatsapp_notifications;
  const token = callLinkToken(callId);
  // Only the WhatsApp messages carry the candidate's link: the script goes to the voice provider.
  const withLink = { ...ctx, candidate_call_url: callLinkUrl(publicBaseUrl, token), candidate_call_token: token };
  return {
    _id: callId,
    workspace_id: workspace._id,
    project_id: project._id,
    ats_job_id: project.ats_job_id,
    candidate_id: c.id,
    candidate: {
      name: c.name,
      email: c.email,
      phone: c.phone,
      custom_fields: c.custom_fields ?? {},
      ...(c.consent ? { consent: { ...c.consent, source: c.consent.source.trim(), captured_at: new Date(c.consent.captured_at) } } : {}),
    },
    workflow_id: callWorkflowId(callId),
    status: 'scheduled',
    first_message: renderTemplate(req.first_message, ctx),
    instructions: renderTemplate(req.instructions, ctx),
    assistant_settings: req.assistant_settings ?? null,
    extract_variables: req.extract_variables ?? [],
    call_settings: req.call_settings ?? null,
    whatsapp: { pre_call: resolveTemplate(whatsapp?.pre_call, withLink), fallback: resolveTemplate(whatsapp?.fallback, withLink) },
    schedule_at: req.schedule_at ? new Date(req.schedule_at) : null,
    candidate_token: token,
    ...(req.candidate_choices ? { candidate_choices: req.candidate_choices } : {}),
    ...(req.form_fallback && req.form_fallback !== 'never' ? { form_fallback: req.form_fallback } : {}),
    ...(workspace.settings?.email_call_links && c.email ? { email_link: true as const } : {}),
    scheduled_for: null,
    timezones: candidateZones(c.timezone, c.phone, defaultTimezone(workspace)),
    deferrals: [],
    next_attempt_at: null,
    attempts: [],
    messages: [],
    transcript: null,
    extracted_variables: null,
    failure_reason: null,
    // An ATS's order (operations/partner-orders.ts): each change of the call tells its push workflow.
    ...(req.partner_assessment_id ? { partner_assessment_id: req.partner_assessment_id } : {}),
    created_at: now,
    updated_at: now,
  };
}

/** Starts the call's workflow; starting it again is a no-op. */
export async function startCallWorkflow(deps: Pick<CallDeps, 'workflows'>, call: CallDoc): Promise<void> {
  await deps.workflows.startCalls([call], null);
}
