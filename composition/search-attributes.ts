import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Logger } from '../infra/logger';
import { searchAttributeKeys } from '../workflows/search-attributes';

/**
 * Registers the custom search attributes on a cluster that lacks them (self-hosted), and says whether they
 * are all there. The API and the worker each call it at start: a workflow started with an attribute the
 * namespace does not have is refused, so an API whose worker has not started yet could schedule nothing. On
 * Temporal Cloud the operator API is not open to namespace keys: the warning names the attributes to add in
 * the Cloud console. Throws when the server cannot be reached.
 */
export async function ensureSearchAttributes(client: Client, namespace: string, logger: Logger): Promise<boolean> {
  const names = searchAttributeKeys.map((k) => k.name);
  const operator = client.connection.operatorService;
  let missing = names;
  let listable = true;
  try {
    const existing = await operator.listSearchAttributes({ namespace });
    missing = names.filter((n) => !(n in (existing.customAttributes ?? {})));
  } catch (err) {
    if (isUnreachable(err)) throw err;
    // Some servers (Temporal's Java test server) can add attributes but not list them: add them all.
    listable = false;
  }
  if (missing.length === 0) return true;
  try {
    await operator.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((n) => [n, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD])),
    });
    logger.info({ added: missing }, 'registered search attributes');
  } catch (err) {
    if (isUnreachable(err)) throw err;
    // Added by another process a moment ago (listed again below), or not ours to add (Temporal Cloud).
    logger.warn({ err, attributes: missing }, 'could not register search attributes; add them as Keyword attributes');
  }
  // A server that cannot list them (the Java test server; a Cloud key without the permission) cannot be
  // checked: the log above names what to add, and readiness does not wait for what it cannot see.
  if (!listable) return true;
  const now = await operator.listSearchAttributes({ namespace });
  return names.every((n) => n in (now.customAttributes ?? {}));
}

/** gRPC UNAVAILABLE or DEADLINE_EXCEEDED: the server, not the request, is the problem. */
const isUnreachable = (err: unknown) => [4, 14].includes((err as { code?: number }).code ?? -1);

/**
 * The API's readiness check of the attributes: true once they exist. Registering is tried at most every
 * 10 seconds while they are missing (each failed try logs a warning), and never again once it has worked.
 */
export function searchAttributesCheck(client: Client, namespace: string, logger: Logger): () => Promise<boolean> {
  let ready = false;
  let nextTry = 0;
  return async () => {
    if (ready || Date.now() < nextTry) return ready;
    nextTry = Date.now() + 10_000;
    ready = await ensureSearchAttributes(client, namespace, logger).catch((err: unknown) => {
      nextTry = 0; // unreachable: asked again at the next look
      throw err;
    });
    return ready;
  };
}
