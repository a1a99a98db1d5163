import type { VNode } from 'preact';
import type { ProjectDoc } from '../../infra/documents/projects';
import type { CallDoc } from '../../infra/documents/calls';
import { expiresAtOf, type InterviewDoc } from '../../infra/documents/interviews';
import type { ProjectCounts } from '../../infra/lists/project-counts';
import { Layout } from '../layout';
import { ReviewPanel } from './review';
import { InterviewAnswers } from './answers';

/** The dashboard's frame: whose workspace, the way back to the projects, and sign-out (a form with its token). */
export interface DashboardFrame {
  workspaceName: string;
  csrf: string;
  /** The Temporal UI's link to a workflow, when its base URL is configured. */
  workflowLink(workflowId: string): string | null;
}

const when = (d: Date | null | undefined) => (d ? d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—');

function Header({ frame }: { frame: DashboardFrame }): VNode {
  return (
    <header class="bar">
      <nav aria-label="Dashboard">
        <a href="/projects">Projects</a>
        <span class="who">{frame.workspaceName}</span>
      </nav>
      <form method="post" action="/sign-out">
        <input type="hidden" name="csrf" value={frame.csrf} />
        <button type="submit" class="quiet">
          Sign out
        </button>
      </form>
    </header>
  );
}

export function ProjectsPage({ frame, projects, next }: { frame: DashboardFrame; projects: ProjectDoc[]; next: string | null }): VNode {
  return (
    <Layout title="Projects" header={<Header frame={frame} />}>
      <h1>Projects</h1>
      {projects.length === 0 && <p>No projects yet: they appear with the first call campaign or interview invitation of a job.</p>}
      <ul class="rows">
        {projects.map((p) => (
          <li class="card">
            <h2>
              <a href={`/projects/${p._id}`}>{p.name}</a>
            </h2>
            <dl class="facts">
              <dt>Kind</dt>
              <dd>{p.kind === 'campaign' ? 'Call campaign' : 'Interviews'}</dd>
              <dt>ATS job</dt>
              <dd>{p.ats_job_id}</dd>
              <dt>Created</dt>
              <dd>{when(p.created_at)}</dd>
            </dl>
          </li>
        ))}
      </ul>
      {next && (
        <p>
          <a href={`/projects?cursor=${encodeURIComponent(next)}`}>Next 100 projects</a>
        </p>
      )}
    </Layout>
  );
}

export interface ProjectPageModel {
  frame: DashboardFrame;
  project: ProjectDoc;
  counts: ProjectCounts;
  status: string | null;
  calls: CallDoc[];
  interviews: InterviewDoc[];
  /** The next page's link, or null at the end. */
  next: string | null;
}

export function ProjectPage(m: ProjectPageModel): VNode {
  const base = `/projects/${m.project._id}`;
  return (
    <Layout title={m.project.name} header={<Header frame={m.frame} />}>
      <h1>{m.project.name}</h1>
      <p class="lede">
        {m.project.kind === 'campaign' ? 'Call campaign' : 'Interviews'} for ATS job {m.project.ats_job_id} · {m.counts.total} candidates
      </p>
      <nav aria-label="Filter by status">
        <ul class="tags">
          <li>
            <a href={base} aria-current={m.status === null ? 'page' : undefined}>
              All ({m.counts.total})
            </a>
          </li>
          {Object.entries(m.counts.by_status).map(([status, n]) => (
            <li>
              <a href={`${base}?status=${status}`} aria-current={m.status === status ? 'page' : undefined}>
                {status.replace('_', ' ')} ({n})
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <ul class="rows">
        {m.calls.map((c) => (
          <CallRow call={c} frame={m.frame} />
        ))}
        {m.interviews.map((i) => (
          <InterviewRow interview={i} frame={m.frame} />
        ))}
      </ul>
      {m.calls.length + m.interviews.length === 0 && <p>No candidates{m.status ? ` with status ${m.status}` : ''}.</p>}
      {m.next && (
        <p>
          <a href={m.next}>Next 100 candidates</a>
        </p>
      )}
    </Layout>
  );
}

function WorkflowLink({ frame, id }: { frame: DashboardFrame; id: string }): VNode | null {
  const href = frame.workflowLink(id);
  return href ? (
    <p>
      <a href={href} rel="noreferrer">
        Workflow in the Temporal UI
      </a>
    </p>
  ) : null;
}

function CallRow({ call, frame }: { call: CallDoc; frame: DashboardFrame }): VNode {
  const extracted = Object.entries(call.extracted_variables ?? {});
  return (
    <li class="card">
      <h2>{call.candidate.name}</h2>
      <dl class="facts">
        <dt>Candidate</dt>
        <dd>{call.candidate_id}</dd>
        <dt>Status</dt>
        <dd class="status">{call.status.replace('_', ' ')}</dd>
        <dt>Attempts</dt>
        <dd>
          {call.attempts.length === 0
            ? 'none yet'
            : call.attempts
                .map((a) => `${a.number}: ${a.outcome ?? 'under way'}${a.failure_reason ? ` (${a.failure_reason})` : ''}`)
                .join(', ')}
        </dd>
        {call.candidate.consent && (
          <>
            <dt>Consent</dt>
            <dd>
              {call.candidate.consent.basis.replace(/_/g, ' ')}, {when(call.candidate.consent.captured_at)}: {call.candidate.consent.source}
            </dd>
          </>
        )}
        {call.failure_reason && (
          <>
            <dt>Failed</dt>
            <dd>{call.failure_reason}</dd>
          </>
        )}
        {extracted.map(([name, value]) => (
          <>
            <dt>{name}</dt>
            <dd>{JSON.stringify(value)}</dd>
          </>
        ))}
      </dl>
      {call.transcript && call.transcript.length > 0 && (
        <details>
          <summary>Transcript</summary>
          <ol class="transcript">
            {call.transcript.map((t) => (
              <li>
                <strong>{t.role === 'assistant' ? 'Assistant' : 'Candidate'}:</strong> {t.text}
              </li>
            ))}
          </ol>
        </details>
      )}
      <WorkflowLink frame={frame} id={call.workflow_id} />
    </li>
  );
}

function InterviewRow({ interview, frame }: { interview: InterviewDoc; frame: DashboardFrame }): VNode {
  const assessment = interview.assessment ?? null;
  const scored = new Map((assessment?.questions ?? []).map((q) => [q.index, q]));
  return (
    <li class="card" id={interview._id}>
      <h2>{interview.candidate.name}</h2>
      <dl class="facts">
        <dt>Candidate</dt>
        <dd>{interview.candidate_id}</dd>
        <dt>Status</dt>
        <dd class="status">{interview.status}</dd>
        <dt>Email</dt>
        <dd>{interview.email.status}</dd>
        <dt>Started</dt>
        <dd>{when(interview.started_at)}</dd>
        <dt>Completed</dt>
        <dd>{when(interview.completed_at)}</dd>
        <dt>Link open until</dt>
        <dd>{when(expiresAtOf(interview))}</dd>
        {interview.ai_assessment_declined_at && (
          <>
            <dt>AI assessment</dt>
            <dd>declined by the candidate, {when(interview.ai_assessment_declined_at)}: a person assesses</dd>
          </>
        )}
        {assessment && (
          <>
            <dt>Assessment</dt>
            <dd class="assessment">
              {assessment.overall
                ? `${assessment.overall.score} of 5, ${assessment.overall.recommendation} (${assessment.provider})`
                : assessment.status === 'failed'
                  ? `failed: ${assessment.error}`
                  : assessment.status === 'declined'
                    ? 'declined: the candidate asked for a person, not an AI, to assess their answers'
                    : assessment.status}
            </dd>
          </>
        )}
      </dl>
      {assessment?.overall && <p class="summary">{assessment.overall.summary}</p>}
      <InterviewAnswers interview={interview} scored={scored} />
      <ReviewPanel interview={interview} csrf={frame.csrf} />
      <WorkflowLink frame={frame} id={interview.workflow_id} />
    </li>
  );
}
