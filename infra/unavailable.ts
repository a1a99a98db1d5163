import {
  MongoBulkWriteError,
  MongoNetworkError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
// The check alone (lib/errors loads gRPC's status codes): the client's index loads the whole SDK and its
// protobufs, 0.2 s of CPU that every process with a store paid, the admin CLI's commands among them.
import { isGrpcServiceError } from '@temporalio/client/lib/errors';
import { ServiceUnavailableError } from '../shared/errors';

/** gRPC status codes (grpc/status.proto) of a server that cannot be reached or did not answer in time. */
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;

/** Server answers that mean "shutting down or not the primary now": ShutdownInProgress, InterruptedAtShutdown and kin. */
const MONGO_GOING_AWAY = new Set([91, 189, 10107, 11600, 11602, 13435, 13436]);
/**
 * FerretDB's InterruptedAtShutdown: stopped, it serves the connections it has for 3 s more, then cancels the
 * commands still running, each answered InternalError (code 1) "… context canceled" (or "… after delay"), or,
 * for an update whose transaction the cancel rolled back, "… transaction has already been committed or rolled
 * back" (38 such answers in one chaos run's database outage). Taken for a fault of ours, one made a
 * call/initiate answer 200 with its entry "please retry"; an earlier run's 503 after 6.3 s fits one such
 * answer and then a wait for the database at the next write.
 */
const FERRETDB_INTERNAL_ERROR = 1;
const FERRETDB_CANCELLED = /context canceled|transaction has already been committed or rolled back/;
/**
 * A bulk write that failed as a whole on a network error: the driver wraps it in a MongoBulkWriteError that
 * keeps only its message (no cause, no write errors), as measured with FerretDB stopped mid-insertMany. Its
 * message is then the socket's own: "connection N to … closed", or Node's EPIPE text when the write went out
 * on a socket the database had just closed (a chaos run's claim write answered "please retry" with a 200).
 */
const NETWORK_MESSAGE =
  /ECONNREFUSED|ECONNRESET|EPIPE|connection \d+ to .* closed|timed out|Server selection|socket has been ended by the other party/i;
/**
 * A socket error the driver lets through unwrapped: writing to a connection the database has just closed
 * gave a plain Node EPIPE from inside the driver when FerretDB stopped during traffic.
 */
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH']);
const fromDriver = (e: Error) => /[\\/]node_modules[\\/]mongodb[\\/]/.test(e.stack ?? '');

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
      e instanceof MongoOperationTimeoutError ||
      (e instanceof MongoBulkWriteError && [e.writeErrors].flat().length === 0 && NETWORK_MESSAGE.test(e.message)) ||
      (e instanceof MongoServerError && typeof e.code === 'number' && MONGO_GOING_AWAY.has(e.code)) ||
      (e instanceof MongoServerError && e.code === FERRETDB_INTERNAL_ERROR && FERRETDB_CANCELLED.test(e.message)) ||
      (SOCKET_CODES.has(String((e as { code?: unknown }).code)) && fromDriver(e))
    ) {
      return new ServiceUnavailableError('database');
    }
    if (isGrpcServiceError(e) && (e.code === GRPC_UNAVAILABLE || e.code === GRPC_DEADLINE_EXCEEDED)) {
      return new ServiceUnavailableError('temporal');
    }
  }
  return null;
}
