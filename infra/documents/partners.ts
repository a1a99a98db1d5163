import type { PartnerAts, PartnerTestKind, InterviewTerms, PhoneScreenTerms } from '../../shared/partners/schema';

/**
 * What the ATS doors keep (docs/ats/): a workspace's keys for each ATS, its tests, each order an ATS sent, and
 * the one secret of a customer's it calls back with (an Ashby API key), sealed.
 */

/** A key an ATS presents for the workspace, named by a hash of the key itself (`pk_<sha256>`): one exact `_id` read. */
export interface PartnerCredentialDoc {
  _id: string;
  /** The public id: the key's listing and revocation name it, never the key. */
  credential_id: string;
  workspace_id: string;
  ats: PartnerAts;
  prefix: string;
  created_at: Date;
  /** A rotated key works until then; null: until revoked. */
  expires_at: Date | null;
  revoked_at: Date | null;
}

/** A workspace's test, as its ATS lists it (`ptest_…`). */
export interface PartnerTestDoc {
  _id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  kind: PartnerTestKind;
  interview: InterviewTerms | null;
  phone_screen: PhoneScreenTerms | null;
  created_at: Date;
  updated_at: Date;
  /** Deleted: no longer listed or sent; orders already sent keep their result. */
  deleted_at: Date | null;
}

/**
 * One order an ATS sent (`pas_<hash>`, derived from the workspace, the ATS and the ATS's own name for it, so the
 * same order sent twice is one): what it runs (an interview or a call of ours), where the ATS takes results,
 * and the last result version pushed there.
 */
export interface PartnerAssessmentDoc {
  _id: string;
  workspace_id: string;
  ats: PartnerAts;
  test_id: string;
  /** The ATS's own ids: its application (or person), its job, and for Greenhouse the URL to PATCH. */
  order: {
    application_id: string;
    job_id: string | null;
    callback_url: string | null;
    /**
     * The credential the order came with, sealed (infra/sealed.ts), where its ATS authenticates our report with it
     * (Greenhouse's PATCH); null otherwise. Keys themselves are kept only as hashes.
     */
    callback_auth: string | null;
  };
  /** What runs it; null while the order is being started. */
  resource: { kind: 'interview' | 'call'; id: string; project_id: string } | null;
  created_at: Date;
  /** Cancelled through the ATS: its result says so. */
  cancelled_at: Date | null;
  /** The last result version the ATS was told of (shared/partners/results.ts), and when. */
  pushed_version: number;
  pushed_at: Date | null;
}

/** A customer's secret we call their ATS with, sealed (infra/sealed.ts): `<workspace>/<ats>-api-key`. */
export interface PartnerSecretDoc {
  _id: string;
  workspace_id: string;
  sealed: string;
  /** The last four characters, to tell keys apart. */
  last4: string;
  updated_at: Date;
}

/**
 * An interview or a call an ATS ordered names its order, so each change of it tells the order's push workflow
 * (composition/partner-signals.ts). Set by the use case that makes it, never from a request's body (the
 * public schemas refuse unknown fields).
 */
export interface PartnerLink {
  partner_assessment_id?: string;
}
