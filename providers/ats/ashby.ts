import { isRetryableStatus, UpstreamError } from '../../shared/errors';
import { ashbyUpdate } from '../../shared/partners/ashby';
import { basic, type AtsReporter, type SendJson } from './port';

/**
 * Ashby's `assessment.update` (developers.ashbyhq.com), Basic-authenticated with the customer's Ashby API key:
 * every result is reported (sent, started, then completed with the result, or an end with its reason). Ashby
 * answers 200 with `success: false` for a request it refuses; that is a refusal, as a 4xx is.
 */
export function ashbyReporter(send: SendJson, opts: { apiUrl: string }): AtsReporter {
  const base = opts.apiUrl.replace(/\/+$/, '');
  return {
    ats: 'ashby',
    async report(order, result, profileUrl, at) {
      if (!order.credential) return { outcome: 'refused', detail: 'the workspace keeps no Ashby API key (PUT /partners/ashby/api-key)' };
      const body = JSON.stringify(ashbyUpdate(order.assessmentId, result, profileUrl, at.getTime()));
      const res = await send('POST', `${base}/assessment.update`, { authorization: basic(order.credential) }, body);
      if (res.status === 200) {
        const answer = parsed(res.body);
        if (answer?.success === true) return { outcome: 'reported' };
        return {
          outcome: 'refused',
          detail: `Ashby refused the update: ${JSON.stringify(answer?.errors ?? answer?.errorInfo ?? res.body).slice(0, 300)}`,
        };
      }
      if (res.status !== null && !isRetryableStatus(res.status)) return { outcome: 'refused', detail: `Ashby answered ${res.status}` };
      throw new UpstreamError(res.error ?? `Ashby answered ${res.status}`, 'ashby', true, { status: res.status ?? 0 });
    },
  };
}

/**
 * The candidate's phone as Ashby keeps it (`candidate.info`), for a phone screen: Ashby's assessment.start names
 * no phone. Null when Ashby has none, or cannot be asked.
 */
export async function ashbyCandidatePhone(
  send: SendJson,
  opts: { apiUrl: string },
  apiKey: string,
  candidateId: string,
): Promise<string | null> {
  const res = await send(
    'POST',
    `${opts.apiUrl.replace(/\/+$/, '')}/candidate.info`,
    { authorization: basic(apiKey) },
    JSON.stringify({ id: candidateId }),
  );
  if (res.status !== 200) return null;
  const info = parsed(res.body)?.results as
    { primaryPhoneNumber?: { value?: string }; phoneNumbers?: Array<{ value?: string }> } | undefined;
  return info?.primaryPhoneNumber?.value ?? info?.phoneNumbers?.find((p) => p.value)?.value ?? null;
}

function parsed(body: string | null): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(body ?? '');
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
