import { liveSlotStore, type LiveSlotStore } from './live-slots';
import { liveHoldStore, type LiveHoldStore } from './live-holds';
import { partnerKeyStore, type PartnerKeyStore } from './partner-keys';
import { partnerTestStore, type PartnerTestStore } from './partner-tests';
import { partnerAssessmentStore, type PartnerAssessmentStore } from './partner-assessments';
import type { Config } from '../infra/config';
import { configuredSecrets, personHashKeys } from './person-keys';
import type { Database } from '../infra/database';
import type { Announce } from '../infra/webhooks/events';
import { callStore, type CallStore } from './calls';
import { callReportStore, type CallReportStore } from './call-reports';
import { callSlotStore, type CallSlotStore } from './call-slots';
import { candidateStore, type CandidateStore } from './candidates';
import { dialCapStore, type DialCapStore } from './dial-caps';
import { idempotencyStore, type IdempotencyStore } from './idempotency';
import { interviewStore, type InterviewStore } from './interviews';
import { limitStore, type LimitStore } from './limits';
import { projectStore, type ProjectStore } from './projects';
import { providerLogStore, type ProviderLogStore } from './provider-logs';
import { recordingStore, type RecordingStore } from './recordings';
import { sessionStore, type SessionStore } from './sessions';
import { signedTokenStore, type SignedTokenStore } from './signed-tokens';
import { suppressionStore, type SuppressionStore } from './suppressions';
import { webhookStore, type WebhookStore } from './webhooks';
import { workspaceStore, type WorkspaceStore } from './workspaces';
import { erasureStore, type ErasureStore } from './erasures';
import { sendStore, type SendStore } from './sends';
import { sweepExpiredClaims } from '../infra/claims';

/**
 * Every store of the service: one per aggregate, each the only code that reads and writes its collections
 * (docs/architecture.md). Built once per process by composition/stores.ts and handed to the API, the pages and
 * the worker; nothing else builds a store.
 */
export interface Stores {
  workspaces: WorkspaceStore;
  sessions: SessionStore;
  projects: ProjectStore;
  candidates: CandidateStore;
  calls: CallStore;
  callReports: CallReportStore;
  callSlots: CallSlotStore;
  /** A workspace's live-conversation slots (stores/live-slots.ts). */
  liveSlots: LiveSlotStore;
  liveHolds: LiveHoldStore;
  /** The ATS doors' keys, and the customers' own keys we report with (docs/ats/). */
  partnerKeys: PartnerKeyStore;
  partnerTests: PartnerTestStore;
  partnerAssessments: PartnerAssessmentStore;
  dialCaps: DialCapStore;
  interviews: InterviewStore;
  recordings: RecordingStore;
  suppressions: SuppressionStore;
  webhooks: WebhookStore;
  idempotency: IdempotencyStore;
  limits: LimitStore;
  providerLogs: ProviderLogStore;
  signedTokens: SignedTokenStore;
  erasures: ErasureStore;
  /** Messages to people, each claimed before it goes, so none goes twice (stores/sends.ts). */
  sends: SendStore;
  /** Whether the database answers, within two seconds (GET /readyz). */
  ping(): Promise<void>;
  /**
   * Removes what has run out: kept answers, sessions, limit windows, and what uploads left behind. MongoDB's TTL
   * indexes remove the first three too; FerretDB 1.x has none, so without this they would stay for good.
   */
  purgeExpired(now: Date): Promise<Record<'idempotencyKeys' | 'sessions' | 'limitEntries' | 'uploads' | 'recordings', number>>;
  /**
   * Removes the claims whose lease ran out over an hour before `now` (infra/claims.ts): the hourly claim sweep's
   * (workflows/claim-sweep.ts), so that at a steady load their number stays bounded. The count removed.
   */
  sweepClaims(now: Date): Promise<number>;
}

export interface StoreWiring {
  /** Hands the events a change of a call or an interview records to the workspace's webhooks. */
  announce: Announce;
  /** Tells an ATS order's report workflow that its interview or call changed (composition/stores.ts). */
  partnerChanged?: (assessmentId: string) => Promise<void>;
  config: Pick<Config, 'PUBLIC_BASE_URL'> & Parameters<typeof limitStore>[1];
  /** The time the limits count requests at: the real one, but in tests that hold a burst inside one window. */
  limitsClock?: () => Date;
}

/**
 * Workspaces with their keys, and the dashboard sessions the keys open: each needs the other (a revoked key
 * ends its sessions; a session lives as long as its key), so each asks the other lazily.
 */
export function workspaceStores(db: Database): Pick<Stores, 'workspaces' | 'sessions'> {
  const sessions: SessionStore = sessionStore(db, { keyIsLive: (id) => workspaces.keyIsLive(id) });
  const workspaces: WorkspaceStore = workspaceStore(db, { sessions });
  return { workspaces, sessions };
}

export function createStores(db: Database, { announce, partnerChanged, config, limitsClock }: StoreWiring): Stores {
  const interviews = interviewStore({ db, announce, publicBaseUrl: config.PUBLIC_BASE_URL, partnerChanged });
  const { workspaces, sessions } = workspaceStores(db);
  const recordings = recordingStore(db, { interviewOf: (id) => interviews.get(id) });
  const idempotency = idempotencyStore(db);
  const limits = limitStore(db, config, limitsClock);
  const keys = personHashKeys(db, configuredSecrets(config));
  return {
    workspaces,
    sessions,
    projects: projectStore(db),
    candidates: candidateStore(db, keys),
    calls: callStore({ db, announce, publicBaseUrl: config.PUBLIC_BASE_URL, partnerChanged }),
    callReports: callReportStore(db),
    callSlots: callSlotStore(db),
    liveSlots: liveSlotStore(db),
    liveHolds: liveHoldStore(db),
    partnerKeys: partnerKeyStore(db, configuredSecrets(config)),
    partnerTests: partnerTestStore(db),
    partnerAssessments: partnerAssessmentStore(db),
    dialCaps: dialCapStore(db, keys),
    interviews,
    recordings,
    suppressions: suppressionStore(db, { workspaces, keys }),
    webhooks: webhookStore(db),
    idempotency,
    limits,
    providerLogs: providerLogStore(db),
    signedTokens: signedTokenStore(db),
    erasures: erasureStore(db),
    sends: sendStore(db),
    ping: () => db.ping(),
    async purgeExpired(now) {
      const [idempotencyKeys, sessionsGone, limitEntries, left] = await Promise.all([
        idempotency.purgeExpired(now),
        sessions.purgeExpired(now),
        limits.purgeExpired(now),
        recordings.sweep(now),
      ]);
      return { idempotencyKeys, sessions: sessionsGone, limitEntries, ...left };
    },
    sweepClaims: (now) => sweepExpiredClaims(db, now),
  };
}
