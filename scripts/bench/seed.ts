import type { Database } from '../../infra/database';
import { newId, newToken } from '../../infra/ids';
import { documentId, type CandidateDoc, type ProjectDoc } from '../../infra/documents/projects';
import { type CallDoc } from '../../infra/documents/calls';
import { type InterviewDoc } from '../../infra/documents/interviews';
import { emailKey } from '../../stores/candidates';
import { personHashKeys } from '../../stores/person-keys';
import type { ClaimDoc } from '../../infra/documents/coordination';

/**
 * Stores `n` candidates in the workspace with what real traffic leaves behind them: half in 10 campaign
 * projects, each with a completed call; half in 10 interview projects, each with a sent invitation and the
 * claim on its email. Written directly, in batches, so the benchmark can measure requests against a workspace
 * that already holds data.
 */
export async function seedWorkspace(db: Database, workspaceId: string, n: number): Promise<void> {
  // The bench's processes run with no person hash secret: their keys are the database's own (version 0).
  const secret = await personHashKeys(db, []).current('email-claims');
  const at = new Date();
  const projects: ProjectDoc[] = [];
  for (let k = 0; k < 10; k++) {
    for (const kind of ['campaign', 'interview'] as const) {
      const ats = `seed-${kind}-${k}`;
      projects.push({
        _id: documentId.project(workspaceId, ats),
        workspace_id: workspaceId,
        ats_job_id: ats,
        kind,
        name: ats,
        job_title: ats,
        company_name: null,
        job: null,
        question_set: null,
        created_at: at,
        updated_at: at,
      });
    }
  }
  await db.projects.insertMany(projects);
  for (let from = 0; from < n; from += 1_000) {
    const candidates: CandidateDoc[] = [];
    const calls: CallDoc[] = [];
    const interviews: InterviewDoc[] = [];
    const claims: ClaimDoc[] = [];
    for (let i = from; i < Math.min(n, from + 1_000); i++) {
      const project = projects[i % projects.length];
      const candidateId = `seed-${i}`;
      const person = { name: `Seeded Candidate ${i}`, email: `seed.${i}@example.com`, phone: '+14155550100' };
      candidates.push({
        _id: documentId.candidate(project._id, candidateId),
        workspace_id: workspaceId,
        project_id: project._id,
        candidate_id: candidateId,
        ...person,
        custom_fields: {},
        created_at: at,
        updated_at: at,
      });
      if (project.kind === 'campaign') calls.push(completedCall(workspaceId, project, candidateId, person, at));
      else {
        interviews.push(sentInterview(workspaceId, project, candidateId, person, at));
        claims.push({ _id: emailKey(secret, project._id, person.email), holder: candidateId, expires_at: null, created_at: at });
      }
    }
    await Promise.all([
      db.candidates.insertMany(candidates),
      db.calls.insertMany(calls),
      db.interviews.insertMany(interviews),
      db.claims.insertMany(claims),
    ]);
  }
}

export type Person = { name: string; email: string; phone: string };

export function completedCall(workspaceId: string, project: ProjectDoc, candidateId: string, p: Person, at: Date): CallDoc {
  const _id = newId('call');
  return {
    _id,
    workspace_id: workspaceId,
    project_id: project._id,
    ats_job_id: project.ats_job_id,
    candidate_id: candidateId,
    candidate: { ...p, custom_fields: {} },
    workflow_id: `call-${_id}`,
    status: 'completed',
    first_message: 'Hi, this is Ada from Bench Inc.',
    instructions: `You are calling about ${project.ats_job_id}. ${'Ask about availability and experience. '.repeat(10)}`,
    assistant_settings: null,
    extract_variables: [{ label: 'available', type: 'boolean', description: 'Is the candidate available?' }],
    call_settings: null,
    whatsapp: { pre_call: null, fallback: null },
    schedule_at: null,
    scheduled_for: at,
    next_attempt_at: null,
    attempts: [
      {
        number: 1,
        provider: 'simulator',
        provider_call_id: newId('sim'),
        started_at: at,
        ended_at: at,
        outcome: 'completed',
        failure_reason: null,
        reported_at: at,
      },
    ],
    messages: [],
    transcript: [
      { role: 'assistant', text: 'Hello' },
      { role: 'candidate', text: 'Hi, yes I am available.' },
    ],
    extracted_variables: { available: true },
    failure_reason: null,
    created_at: at,
    updated_at: at,
  };
}

function sentInterview(workspaceId: string, project: ProjectDoc, candidateId: string, p: Person, at: Date): InterviewDoc {
  const _id = documentId.interview(project._id, candidateId);
  const questions = Array.from({ length: 8 }, (_, q) => ({
    question: `Seeded question ${q}?`,
    type: 'video' as const,
    time_limit_seconds: 120,
  }));
  return {
    _id,
    workspace_id: workspaceId,
    project_id: project._id,
    ats_job_id: project.ats_job_id,
    candidate_id: candidateId,
    candidate: p,
    token: newToken(),
    workflow_id: `interview-${_id}`,
    status: 'invited',
    custom_questions: null,
    questions,
    error: null,
    email: { status: 'sent', provider: 'log', message_id: newId('mail'), sent_at: at, error: null },
    created_at: at,
    updated_at: at,
  };
}
