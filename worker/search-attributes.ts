import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Logger } from '../infra/logger';
import { searchAttributeKeys } from '../workflows/search-attributes';

/**
 * Registers the custom search attributes on a cluster that lacks them (self-hosted). On Temporal Cloud the
 * operator API is not open to namespace keys: the warning names the attributes to add in the Cloud console.
 */
export async function ensureSearchAttributes(client: Client, namespace: string, logger: Logger): Promise<void> {
  const names = searchAttributeKeys.map((k) => k.name);
  const operator = client.connection.operatorService;
  let missing = names;
  try {
    const existing = await operator.listSearchAttributes({ namespace });
    missing = names.filter((n) => !(n in (existing.customAttributes ?? {})));
  } catch {
    // Some servers (Temporal's Java test server) can add attributes but not list them: add them all.
  }
  if (missing.length === 0) return;
  try {
    await operator.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((n) => [n, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD])),
    });
    logger.info({ added: missing }, 'registered search attributes');
  } catch (err) {
    logger.warn({ err, attributes: missing }, 'could not register search attributes; add them as Keyword attributes');
  }
}
