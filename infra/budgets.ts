import type { Config } from './config';
import type { Database } from './database';
import { RateLimiter } from './rate-limit';

/**
 * Every abuse limit of the service (OWASP API4:2023), each a fixed-window budget in the database, so every API
 * process spends from one count. Built once per process and shared by the API and the pages, so each limiter's
 * memory of its ledgers serves all of them. Buckets are named `<workspace>/<budget>` or `ip:<address>/<budget>`.
 */
export interface Budgets {
  /** Each AI operation's own per-workspace budget (bucket `<workspace>/<operation>`). */
  ai: RateLimiter;
  /** Candidates accepted by call/initiate and interview/invite together. */
  candidates: RateLimiter;
  /** Invitation and resend emails. */
  emails: RateLimiter;
  resends: RateLimiter;
  deliveryRetries: RateLimiter;
  listReads: RateLimiter;
  signIns: RateLimiter;
  pagesPerIp: RateLimiter;
  pagesPerLink: RateLimiter;
}

const MINUTE = 60;
const HOUR = 3_600;
const DAY = 86_400;

export function budgets(db: Database, config: Config): Budgets {
  const budget = (limit: number, windowSeconds: number) => new RateLimiter(db, { limit, windowSeconds });
  return {
    ai: budget(config.AI_RATE_LIMIT, config.AI_RATE_LIMIT_WINDOW_SECONDS),
    candidates: budget(config.CANDIDATES_PER_HOUR, HOUR),
    emails: budget(config.EMAILS_PER_DAY, DAY),
    resends: budget(config.INTERVIEW_RESENDS_PER_HOUR, HOUR),
    deliveryRetries: budget(config.DELIVERY_RETRIES_PER_MINUTE, MINUTE),
    listReads: budget(config.LIST_READS_PER_MINUTE, MINUTE),
    signIns: budget(config.SIGN_INS_PER_MINUTE, MINUTE),
    pagesPerIp: budget(config.PAGE_REQUESTS_PER_MINUTE_PER_IP, MINUTE),
    pagesPerLink: budget(config.PAGE_REQUESTS_PER_MINUTE_PER_LINK, MINUTE),
  };
}
