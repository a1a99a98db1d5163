import type { ActivityDeps } from './deps';
import { resultOf } from '../operations/partner-orders';
import { isEnd } from '../shared/partners/results';
import { partnerReports } from '../infra/metrics';

/**
 * The reports of an ATS's orders (workflows/partner-pushes.ts): the order's latest result, told to its ATS once,
 * and only when it is later than the last one told. Nothing is told of an erased candidate. A failure that may
 * pass is thrown, and the workflow's retries try again (across restarts); a refusal for good is logged,
 * counted, and not tried again.
 */
export function createPartnerPushActivities({ stores, logger, publicBaseUrl, atsReporters, clock }: ActivityDeps) {
  return {
    /** Reports the order's latest result if it is new; whether the order has ended (its last report made). */
    async pushPartnerResult(assessmentId: string): Promise<{ ended: boolean }> {
      const doc = await stores.partnerAssessments.get(assessmentId);
      if (!doc?.resource) return { ended: true };
      const latest = await resultOf({ stores, publicBaseUrl }, doc);
      // Erased: nothing of the person is told, ever again.
      if (!latest) return { ended: true };
      const { result, profileUrl } = latest;
      if (result.version <= doc.pushed_version) return { ended: isEnd(result.state) };
      const credential =
        doc.ats === 'ashby'
          ? await stores.partnerKeys.secret(doc.workspace_id, 'ashby')
          : await stores.partnerKeys.openSealed(doc.order.callback_auth);
      const report = await atsReporters[doc.ats].report(
        { assessmentId: doc._id, callbackUrl: doc.order.callback_url, credential },
        result,
        profileUrl,
        clock(),
      );
      partnerReports.inc({ ats: doc.ats, outcome: report.outcome });
      if (report.outcome === 'refused')
        logger.warn({ assessmentId, ats: doc.ats, detail: report.detail }, 'an ATS refused a result report');
      await stores.partnerAssessments.pushed(doc._id, result.version);
      return { ended: isEnd(result.state) };
    },
  };
}

export type PartnerPushActivities = ReturnType<typeof createPartnerPushActivities>;
