import { ApplicationFailure } from '@temporalio/common';
import { providerFailureText, UpstreamError } from '../shared/errors';
import { withoutAddresses } from '../shared/address-masking';

/**
 * A provider's failure as Temporal should treat it: retried unless it would fail the same way again. Its
 * message is what a client may read (it can end up in an interview's or a call's `error`); the provider's
 * own words are kept in the failure's details, for the Temporal UI.
 */
export function asActivityFailure(err: unknown, kind: string): unknown {
  if (!(err instanceof UpstreamError)) return err;
  const code = err.detail.code ?? err.detail.status;
  return ApplicationFailure.create({
    message: providerFailureText(err),
    type: `${kind}:${code}`,
    nonRetryable: !err.retryable,
    details: [withoutAddresses(err.message)],
  });
}
