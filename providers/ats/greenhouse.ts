import { isRetryableStatus, UpstreamError } from '../../shared/errors';
import { isEnd } from '../../shared/partners/results';
import { basic, type AtsReporter, type SendJson } from './port';

/**
 * Greenhouse's completed-test report (grnhse/greenhouse-api-docs, "PATCH - Mark Test as Completed"): a bodiless
 * PATCH of the `url` send_test gave, authenticated as send_test was; Greenhouse then asks `test_status`, which
 * answers the result. Only an end is reported; Greenhouse polls while the test goes on. The URL is taken only on
 * Greenhouse's own hosts (GREENHOUSE_CALLBACK_HOSTS), so a send_test cannot point our reports elsewhere.
 */
export function greenhouseReporter(send: SendJson, opts: { hosts: readonly string[] }): AtsReporter {
  return {
    ats: 'greenhouse',
    async report(order, result) {
      if (!isEnd(result.state)) return { outcome: 'skipped' };
      if (!order.callbackUrl || !order.credential) return { outcome: 'refused', detail: 'the order has no report URL or credential' };
      let host: string;
      try {
        host = new URL(order.callbackUrl).host.toLowerCase();
      } catch {
        return { outcome: 'refused', detail: 'the report URL is not a URL' };
      }
      if (!opts.hosts.includes(host))
        return { outcome: 'refused', detail: `the report URL's host ${host} is not one of GREENHOUSE_CALLBACK_HOSTS` };
      const res = await send('PATCH', order.callbackUrl, { authorization: basic(order.credential) }, null);
      if (res.status !== null && res.status >= 200 && res.status < 300) return { outcome: 'reported' };
      if (res.status !== null && !isRetryableStatus(res.status)) return { outcome: 'refused', detail: `Greenhouse answered ${res.status}` };
      throw new UpstreamError(res.error ?? `Greenhouse answered ${res.status}`, 'greenhouse', true, { status: res.status ?? 0 });
    },
  };
}
