import type { ErasureDoc } from './documents/erasures';
import { MongoClient, MongoServerError, type Db, type Collection } from 'mongodb';
import type { ApiKeyDoc, WorkspaceDoc } from './documents/workspaces';
import type { CallDoc, ProviderRefDoc, WhatsAppLogDoc } from './documents/calls';
import type { CallReportDoc } from './documents/call-reports';
import type { CandidateDoc, ProjectDoc } from './documents/projects';
import type { ClaimDoc, LimitEntryDoc } from './documents/coordination';
import type {
  AnswerDoc,
  EmailLogDoc,
  InterviewDoc,
  QuestionClockDoc,
  RecordingChunkDoc,
  RecordingDoc,
  TurnDoc,
} from './documents/interviews';
import type { Logger } from './logger';
import { logDriverEvents, restartStalledMonitors } from './database-monitor';
import type { CellDoc } from './lists/cell-log';
import type { SnapshotDoc } from './lists/item-list';
import type { ProjectTallyDoc } from './documents/projects';
import type { SessionDoc } from './documents/sessions';
import type { IdempotencyDoc } from './documents/idempotency';
import type { SuppressionDoc, SuppressionKeyDoc } from './documents/suppressions';
import type { PersonIndexDoc } from './documents/person-index';
import type { WebhookEndpointsDoc, WebhookEventDoc } from './documents/webhooks';
import type { PartnerAssessmentDoc, PartnerCredentialDoc, PartnerSecretDoc, PartnerTestDoc } from './documents/partners';
import { coalescedReads, type SharedRead } from './coalesced-reads';

/**
 * One MongoDB connection per process. Only features that MongoDB 7 and FerretDB 1.24 both have are used:
 * unique indexes and upserts; no transactions, no change streams. Exclusive claims go through infra/claims.ts,
 * because FerretDB's conditional updates are not isolated.
 */
export interface Database {
  client: MongoClient;
  db: Db;
  /**
   * Which server answers: `ferretdb` (it says so in `buildInfo`) or `mongodb`. Only where the two must be
   * used differently to stay correct and fast: counters (stores/limits.ts), since FerretDB's updates are not
   * isolated.
   */
  engine: 'mongodb' | 'ferretdb';
  workspaces: Collection<WorkspaceDoc>;
  apiKeys: Collection<ApiKeyDoc>;
  projects: Collection<ProjectDoc>;
  candidates: Collection<CandidateDoc>;
  calls: Collection<CallDoc>;
  /** Providers' end-of-call reports as they arrived, one per attempt (infra/documents/call-reports.ts). */
  callReports: Collection<CallReportDoc>;
  whatsappLog: Collection<WhatsAppLogDoc>;
  interviews: Collection<InterviewDoc>;
  claims: Collection<ClaimDoc>;
  emailLog: Collection<EmailLogDoc>;
  /** The limits' counts (stores/limits.ts). */
  limitEntries: Collection<LimitEntryDoc>;
  providerRefs: Collection<ProviderRefDoc>;
  /** When each interview question was first served: its clock (stores/interview-answers.ts). */
  questionClocks: Collection<QuestionClockDoc>;
  /** Each saved interview answer, written once. */
  interviewAnswers: Collection<AnswerDoc>;
  /** A live interview's turns as they complete, each written once (stores/interview-answers.ts). */
  interviewTurns: Collection<TurnDoc>;
  /** Recorded answers and their bytes in chunks (stores/recordings.ts). */
  recordings: Collection<RecordingDoc>;
  recordingChunks: Collection<RecordingChunkDoc>;
  /** Dashboard sign-ins, by the hash of their cookie's token (infra/documents/sessions.ts). */
  sessions: Collection<SessionDoc>;
  /** The lists the service keeps itself (infra/lists/). */
  listIndex: Collection<CellDoc>;
  /** Listed items as they were at their last change, one string each (infra/lists/item-list.ts). */
  listSnapshots: Collection<SnapshotDoc>;
  /** Each project's candidates by status, kept up to date from the feed (infra/lists/project-counts.ts). */
  projectTallies: Collection<ProjectTallyDoc>;
  /** Each workspace's webhook endpoints, one document per workspace (infra/documents/webhooks.ts). */
  webhookEndpoints: Collection<WebhookEndpointsDoc>;
  /** Events sent to webhooks, each once, with the exact body every try sends and its delivery to each endpoint. */
  webhookEvents: Collection<WebhookEventDoc>;
  /** Responses kept for their Idempotency-Key's retries (stores/idempotency.ts). */
  idempotencyKeys: Collection<IdempotencyDoc>;
  /** Values the processes share, such as the key that signs list cursors. */
  settings: Collection<{ _id: string; value: string }>;
  /** The suppression list: its entries, and the keys they are filed and enforced under (stores/suppressions.ts). */
  suppressions: Collection<SuppressionDoc>;
  suppressionKeys: Collection<SuppressionKeyDoc>;
  /** Where each person's calls and interviews are, by candidate id, email and phone (stores/person-index.ts). */
  personIndex: Collection<PersonIndexDoc>;
  erasures: Collection<ErasureDoc>;
  partnerCredentials: Collection<PartnerCredentialDoc>;
  partnerSecrets: Collection<PartnerSecretDoc>;
  partnerTests: Collection<PartnerTestDoc>;
  partnerAssessments: Collection<PartnerAssessmentDoc>;
  /**
   * The documents bursts read most, by `_id`, each read shared by the callers that ask while another is in
   * flight (infra/coalesced-reads.ts): as fresh as a read of one's own, and not to be changed.
   */
  shared: {
    workspace: SharedRead<WorkspaceDoc>;
    project: SharedRead<ProjectDoc>;
    webhookEndpoints: SharedRead<WebhookEndpointsDoc>;
  };
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function connectDatabase(
  uri: string,
  dbName: string,
  opts: { logger?: Logger; monitorStallSlackMs?: number; monitorCommands?: boolean } = {},
): Promise<Database> {
  // A database that is down fails an operation within 3 s, so the API answers 503 within its 5 s promise.
  const client = new MongoClient(uri, {
    serverSelectionTimeoutMS: 3_000,
    connectTimeoutMS: 3_000,
    appName: 'hiring-integration',
    // For tests that count the operations a piece of code makes.
    monitorCommands: opts.monitorCommands ?? false,
  });
  const log = opts.logger?.child({ component: 'mongodb' });
  if (log) logDriverEvents(client, log);
  const stopWatching = restartStalledMonitors(client, log, opts.monitorStallSlackMs);
  await client.connect();
  const db = client.db(dbName);
  const workspaces = db.collection<WorkspaceDoc>('workspaces');
  const projects = db.collection<ProjectDoc>('projects');
  const webhookEndpoints = db.collection<WebhookEndpointsDoc>('webhook_endpoints');
  const info = await db.admin().command({ buildInfo: 1 });
  const database: Database = {
    client,
    db,
    engine: info.ferretdbVersion ? 'ferretdb' : 'mongodb',
    workspaces,
    apiKeys: db.collection<ApiKeyDoc>('api_keys'),
    projects,
    candidates: db.collection<CandidateDoc>('candidates'),
    calls: db.collection<CallDoc>('calls'),
    callReports: db.collection<CallReportDoc>('call_reports'),
    whatsappLog: db.collection<WhatsAppLogDoc>('whatsapp_log'),
    interviews: db.collection<InterviewDoc>('interviews'),
    claims: db.collection<ClaimDoc>('claims'),
    emailLog: db.collection<EmailLogDoc>('email_log'),
    limitEntries: db.collection<LimitEntryDoc>('rate_limits'),
    providerRefs: db.collection<ProviderRefDoc>('provider_refs'),
    listIndex: db.collection<CellDoc>('list_index'),
    listSnapshots: db.collection<SnapshotDoc>('list_snapshots'),
    projectTallies: db.collection<ProjectTallyDoc>('project_tallies'),
    questionClocks: db.collection<QuestionClockDoc>('question_clocks'),
    sessions: db.collection<SessionDoc>('sessions'),
    recordings: db.collection<RecordingDoc>('recordings'),
    recordingChunks: db.collection<RecordingChunkDoc>('recording_chunks'),
    interviewAnswers: db.collection<AnswerDoc>('interview_answers'),
    interviewTurns: db.collection<TurnDoc>('interview_turns'),
    webhookEndpoints,
    webhookEvents: db.collection<WebhookEventDoc>('webhook_events'),
    idempotencyKeys: db.collection<IdempotencyDoc>('idempotency_keys'),
    settings: db.collection<{ _id: string; value: string }>('settings'),
    suppressions: db.collection<SuppressionDoc>('suppressions'),
    suppressionKeys: db.collection<SuppressionKeyDoc>('suppression_keys'),
    personIndex: db.collection<PersonIndexDoc>('person_index'),
    erasures: db.collection<ErasureDoc>('erasures'),
    partnerCredentials: db.collection<PartnerCredentialDoc>('partner_credentials'),
    partnerSecrets: db.collection<PartnerSecretDoc>('partner_secrets'),
    partnerTests: db.collection<PartnerTestDoc>('partner_tests'),
    partnerAssessments: db.collection<PartnerAssessmentDoc>('partner_assessments'),
    shared: {
      workspace: coalescedReads((id) => workspaces.findOne({ _id: id })),
      project: coalescedReads((id) => projects.findOne({ _id: id })),
      webhookEndpoints: coalescedReads((id) => webhookEndpoints.findOne({ _id: id })),
    },
    async ping() {
      await db.command({ ping: 1 }, { timeoutMS: 2_000 });
    },
    close: () => {
      stopWatching();
      return client.close();
    },
  };
  await ensureIndexes(database);
  return database;
}

async function ensureIndexes(d: Database): Promise<void> {
  await d.apiKeys.createIndex({ hash: 1 }, { unique: true, name: 'hash_unique' });
  await d.apiKeys.createIndex({ workspace_id: 1 }, { name: 'by_workspace' });
  // One project per ATS job in a workspace; one candidate per caller id in a project.
  await d.projects.createIndex({ workspace_id: 1, ats_job_id: 1 }, { unique: true, name: 'workspace_job_unique' });
  await d.candidates.createIndex({ project_id: 1, candidate_id: 1 }, { unique: true, name: 'project_candidate_unique' });
  await d.calls.createIndex({ workspace_id: 1, project_id: 1, candidate_id: 1 }, { name: 'by_candidate' });
  // Rare reads off the requests' paths, which FerretDB answers by reading through and MongoDB from these: a
  // WhatsApp STOP's workspaces (by the candidates' phone), an erasure's kept answers (by workspace), and the
  // daily retention sweep's ended calls and interviews (by workspace and age). A person's are found by exact
  // `_id` in the person index (stores/person-index.ts).
  await d.candidates.createIndex({ phone: 1 }, { name: 'by_phone' });
  await d.idempotencyKeys.createIndex({ workspace_id: 1 }, { name: 'by_workspace' });
  await d.calls.createIndex({ workspace_id: 1, updated_at: 1 }, { name: 'by_workspace_age' });
  await d.interviews.createIndex({ workspace_id: 1, updated_at: 1 }, { name: 'by_workspace_age' });
  await d.whatsappLog.createIndex({ call_id: 1, kind: 1 }, { unique: true, name: 'call_kind_unique' });
  // One interview per candidate and project; link tokens resolve to exactly one interview.
  await d.interviews.createIndex({ project_id: 1, candidate_id: 1 }, { unique: true, name: 'project_candidate_unique' });
  await d.interviews.createIndex({ token: 1 }, { unique: true, name: 'token_unique' });
  await d.emailLog.createIndex({ idempotency_key: 1 }, { unique: true, name: 'idempotency_key_unique' });
  // MongoDB drops spent limit windows itself; FerretDB 1.x has no TTL indexes, and the worker's housekeeping
  // removes them (infra/housekeeping.ts).
  await d.limitEntries.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expires_ttl' }).catch((err: unknown) => {
    if (!(err instanceof MongoServerError && err.codeName === 'NotImplemented')) throw err;
  });
  // The same for kept idempotent responses; on FerretDB an expired one is replaced by the key's next use.
  await d.idempotencyKeys.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expires_ttl' }).catch((err: unknown) => {
    if (!(err instanceof MongoServerError && err.codeName === 'NotImplemented')) throw err;
  });
  // The hourly sweep of spent claims (infra/claims.ts), by the end of their lease; FerretDB reads them through.
  await d.claims.createIndex({ expires_at: 1 }, { name: 'by_expiry' });
  // Revoking a key ends its sessions, found by key (a rare write; FerretDB scans, MongoDB uses this).
  await d.sessions.createIndex({ key_id: 1 }, { name: 'by_key' });
  // An ATS's keys and a workspace's tests, listed by workspace (rare reads; each key is found by its own `_id`).
  await d.partnerCredentials.createIndex({ workspace_id: 1, ats: 1 }, { name: 'by_workspace' });
  await d.partnerTests.createIndex({ workspace_id: 1 }, { name: 'by_workspace' });
  // The same for dashboard sessions; on FerretDB an expired one is removed when it is next presented.
  await d.sessions.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expires_ttl' }).catch((err: unknown) => {
    if (!(err instanceof MongoServerError && err.codeName === 'NotImplemented')) throw err;
  });
}
