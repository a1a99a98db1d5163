import type { PartnerResult } from '../../shared/partners/results';

/**
 * Reporting an order's result back to the ATS that sent it (docs/ats/): each ATS's adapter says the result in
 * its contract's terms and sends it where its contract says, through the guarded client it is given (the SSRF
 * guard of the webhooks', infra/webhooks/outbound.ts), to the hosts its ATS uses.
 */
export type SendJson = (
  method: 'POST' | 'PATCH',
  url: string,
  headers: Record<string, string>,
  body: string | null,
) => Promise<{ status: number | null; error: string | null; body: string | null }>;

export interface OrderToReport {
  /** Our id of the order: Greenhouse's `partner_interview_id`, Ashby's `assessment_id`. */
  assessmentId: string;
  /** Greenhouse's URL to PATCH, as its send_test gave it. */
  callbackUrl: string | null;
  /** The credential the ATS reports with: the key its send_test came with (Greenhouse), the customer's API key (Ashby). */
  credential: string | null;
}

/**
 * `reported`: the ATS took it. `skipped`: its contract reports no such result (Greenhouse hears only of an end).
 * `refused`: the ATS refused it for good (a 4xx other than 408, 409, 425 and 429; a host or credential that is
 * not there); telling it again would be refused again. A failure that may pass (an outage, a 429, no answer)
 * is thrown, and the caller tries again.
 */
export type ReportOutcome = { outcome: 'reported' | 'skipped' } | { outcome: 'refused'; detail: string };

export interface AtsReporter {
  readonly ats: string;
  report(order: OrderToReport, result: PartnerResult, profileUrl: string, at: Date): Promise<ReportOutcome>;
}

/** The HTTP basic credential of a key as an ATS uses it: the key as the user name, an empty password. */
export const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
