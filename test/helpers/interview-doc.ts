import type { InterviewDoc } from '../../infra/documents/interviews';
import type { WorkspaceDoc } from '../../infra/documents/workspaces';
import type { ProjectDoc } from '../../infra/documents/projects';
import type { Question } from '../../shared/jobs/schema';
import { interviewWorkflowId } from '../../shared/workflow-starts';
import { jobDetails } from './job';

/** The workspace whose sender company an invitation names when its project gives none. */
export function workspaceDoc(id: string): WorkspaceDoc {
  return {
    _id: id,
    name: 'Umbrella',
    sender: { first_name: 'Alice', last_name: 'Abernathy', company: 'Umbrella Corp' },
    created_at: new Date(),
  };
}

/** An interview project as invite stores it, without generated questions; each test bends what it is about. */
export function projectDoc(id: string, workspaceId: string, overrides: Partial<ProjectDoc> = {}): ProjectDoc {
  const job = jobDetails();
  return {
    _id: id,
    workspace_id: workspaceId,
    ats_job_id: `job-${id}`,
    kind: 'interview',
    name: job.title,
    job_title: job.title,
    company_name: null,
    job,
    question_set: null,
    created_at: new Date(),
    updated_at: new Date(),
    ...overrides,
  };
}

/** A queued invitation of `project` whose email is still to be sent. */
export function interviewDoc(id: string, project: ProjectDoc, customQuestions: Question[] | null = null): InterviewDoc {
  return {
    _id: id,
    workspace_id: project.workspace_id,
    project_id: project._id,
    ats_job_id: project.ats_job_id,
    candidate_id: id,
    candidate: { name: 'Jill Valentine', email: `${id}@example.com`, phone: null },
    token: `tok-${id}`,
    workflow_id: interviewWorkflowId(id),
    status: 'queued',
    custom_questions: customQuestions,
    questions: null,
    error: null,
    email: { status: 'pending', provider: null, message_id: null, sent_at: null, error: null },
    created_at: new Date(),
    updated_at: new Date(),
  };
}
