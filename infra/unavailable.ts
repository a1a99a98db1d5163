import { MongoNetworkError, MongoServerSelectionError, MongoTopologyClosedError, MongoOperationTimeoutError } from 'mongodb';
import { isGrpcServiceError } from '@temporalio/client';
import { ServiceUnavailableError } from '../shared/errors';

/** gRPC status codes (grpc/status.proto) of a server that cannot be reached or did not answer in time. */
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;

/**
 * The one place that tells an outage of our own database or Temporal from a fault in our code: an error
 * that means "could not reach it" becomes a ServiceUnavailableError (503 with Retry-After), anything else
 * stays as it is.
 */
export function asUnavailable(err: unknown): ServiceUnavailableError | null {
  if (err instanceof ServiceUnavailableError) return err;
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (
      e instanceof MongoNetworkError ||
      e instanceof MongoServerSelectionError ||
      e instanceof MongoTopologyClosedError ||
      e instanceof MongoOperationTimeoutError
    ) {
      return new ServiceUnavailableError('database');
    }
    if (isGrpcServiceError(e) && (e.code === GRPC_UNAVAILABLE || e.code === GRPC_DEADLINE_EXCEEDED)) {
      return new ServiceUnavailableError('temporal');
    }
  }
  return null;
}
