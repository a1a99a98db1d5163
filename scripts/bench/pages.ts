import { CONSENT_TEXT_VERSION } from '../../shared/interviews/consent';
import type { Database } from '../../infra/database';
import { interviewList } from '../../infra/lists/interviews';
import { documentId, type ProjectDoc } from '../../infra/documents/projects';
import { interviewToken, type InterviewDoc } from '../../infra/documents/interviews';
import { adminStores } from '../../composition/admin-stores';
import type { Question } from '../../shared/jobs/schema';
import type { BenchStack } from './stack';

/**
 * The pages (docs/pages.md), timed as a browser would meet them, with 1,000 and then 10,000 interviews stored
 * in one interview project: the interview page's first byte (a question served, its clock written), an answer
 * saved, a 10 MB recording uploaded, and the dashboard's page of that project's first 100 candidates. The
 * interview page's floor is reading its interview by `_id` from the bench's own connection.
 */
export interface PageRows {
  stored: number;
  firstByte: number[];
  firstByteFloor: number[];
  save: number[];
  upload: number[];
  dashboard: number[];
}

const READS = 21;
const UPLOADS = 3;
const MB10 = 10 * 1024 * 1024;

const TEXT: Question = { question: 'What did you build last?', type: 'text', time_limit_seconds: 1800 };
const AUDIO: Question = { question: 'Tell us about it.', type: 'audio', time_limit_seconds: 1800 };

function started(ws: string, project: ProjectDoc, candidateId: string, questions: Question[], at: Date): InterviewDoc {
  const _id = documentId.interview(project._id, candidateId);
  return {
    _id,
    workspace_id: ws,
    project_id: project._id,
    ats_job_id: project.ats_job_id,
    candidate_id: candidateId,
    candidate: { name: `Paged Candidate ${candidateId}`, email: `${candidateId}@example.com`, phone: null },
    token: interviewToken(_id),
    workflow_id: `interview-${_id}`,
    status: 'started',
    custom_questions: null,
    questions,
    error: null,
    email: { status: 'sent', provider: 'log', message_id: null, sent_at: at, error: null },
    consent: { given_at: at, text_version: CONSENT_TEXT_VERSION },
    started_at: at,
    completed_at: null,
    answers: [],
    created_at: at,
    updated_at: at,
  };
}

async function seed(
  db: Database,
  ws: string,
  project: ProjectDoc,
  prefix: string,
  from: number,
  to: number,
  questions: Question[],
): Promise<InterviewDoc[]> {
  const all: InterviewDoc[] = [];
  for (let i = from; i < to; i += 1_000) {
    const at = new Date();
    const batch = Array.from({ length: Math.min(1_000, to - i) }, (_, k) => started(ws, project, `${prefix}-${i + k}`, questions, at));
    await interviewList(db).created(batch);
    await db.interviews.insertMany(batch);
    all.push(...batch);
  }
  return all;
}

const timed = async (f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

/** A page's own request: same-origin, as the browser sends it. */
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

async function signIn(stack: BenchStack, key: string): Promise<string> {
  const form = await fetch(`${stack.apiUrl}/sign-in`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1];
  const cookie = form.headers.getSetCookie().map((c) => c.split(';')[0]);
  const res = await fetch(`${stack.apiUrl}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...SAME_ORIGIN, cookie: cookie.join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, key, next: '/projects' }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith('hi_session='));
  if (res.status !== 303 || !session) throw new Error(`sign-in answered ${res.status}`);
  return session.split(';')[0];
}

async function measure(stack: BenchStack, interviews: InterviewDoc[], uploads: InterviewDoc[], project: ProjectDoc, session: string) {
  const rows = {
    firstByte: [] as number[],
    firstByteFloor: [] as number[],
    save: [] as number[],
    upload: [] as number[],
    dashboard: [] as number[],
  };
  // Interviews from across the stored ones, each met once, as its candidate would.
  const picks = Array.from({ length: READS }, (_, r) => interviews[Math.floor(((r + 0.5) * interviews.length) / READS)]);
  for (const interview of picks) {
    const path = `${stack.apiUrl}/interview/${interview.token}`;
    rows.firstByte.push(
      await timed(async () => {
        const res = await fetch(path);
        if (res.status !== 200) throw new Error(`interview page answered ${res.status}`);
        void res.body?.cancel();
      }),
    );
    rows.firstByteFloor.push(await timed(() => stack.store.interviews.findOne({ _id: interview._id })));
    rows.save.push(
      await timed(async () => {
        const res = await fetch(`${path}/answers/0`, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...SAME_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ answer: 'A billing platform, end to end. '.repeat(20) }),
        });
        if (res.status !== 303) throw new Error(`answer save answered ${res.status}`);
      }),
    );
  }
  const file = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(MB10 - 4, 7)]);
  for (const interview of uploads) {
    const path = `${stack.apiUrl}/interview/${interview.token}`;
    // The candidate's POST serves the question (a page load moves nothing); its recording is then due.
    const serve = await fetch(`${path}/next`, { method: 'POST', redirect: 'manual', headers: SAME_ORIGIN });
    if (serve.status !== 303) throw new Error(`serving the question answered ${serve.status}`);
    rows.upload.push(
      await timed(async () => {
        const res = await fetch(`${path}/answers/0/recording?duration=60`, {
          method: 'POST',
          headers: { ...SAME_ORIGIN, 'content-type': 'audio/webm' },
          body: file,
        });
        if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      }),
    );
  }
  for (let r = 0; r < READS; r++) {
    rows.dashboard.push(
      await timed(async () => {
        const res = await fetch(`${stack.apiUrl}/projects/${project._id}`, { headers: { cookie: session } });
        if (res.status !== 200) throw new Error(`dashboard answered ${res.status}`);
        await res.text();
      }),
    );
  }
  return rows;
}

/** The rows at 1,000 and at 10,000 interviews stored (BENCH_PAGE_INTERVIEWS). */
export async function pages(stack: BenchStack, large: number): Promise<[PageRows, PageRows]> {
  const space = await adminStores(stack.store).workspaces.create({
    name: 'Pages',
    company: 'Bench Inc',
    senderFirstName: 'Ada',
    senderLastName: 'Lovelace',
  });
  const ws = space.workspace_id;
  const at = new Date();
  const project: ProjectDoc = {
    _id: documentId.project(ws, 'pages-job'),
    workspace_id: ws,
    ats_job_id: 'pages-job',
    kind: 'interview',
    name: 'Bench interviews',
    job_title: 'Bench interviews',
    company_name: null,
    job: null,
    question_set: null,
    created_at: at,
    updated_at: at,
  };
  await stack.store.projects.insertOne(project);
  const session = await signIn(stack, space.api_key);
  const out: PageRows[] = [];
  let stored: InterviewDoc[] = [];
  for (const size of [1_000, large]) {
    stored = stored.concat(await seed(stack.store, ws, project, 'paged', stored.length, size, [TEXT, TEXT]));
    const uploads = await seed(stack.store, ws, project, `upload-${size}`, 0, UPLOADS, [AUDIO]);
    process.stderr.write(`  pages: ${size} interviews stored\n`);
    out.push({ stored: size, ...(await measure(stack, stored, uploads, project, session)) });
  }
  return [out[0], out[1]];
}
