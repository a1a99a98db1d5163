import type { ApiDeps } from '../deps';
import { newId } from '../../infra/ids';
import type { WebhookEndpoint } from '../../infra/documents/webhooks';
import { checkWebhookUrl } from '../../infra/webhooks/outbound';
import { newWebhookSecret } from '../../infra/webhooks/signing';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import {
  MAX_WEBHOOK_ENDPOINTS,
  SECRET_OVERLAP_HOURS,
  WEBHOOK_EVENT_TYPES,
  type WebhookCreateRequest,
  type WebhookEndpointView,
} from '../../shared/webhooks/schema';

/**
 * A workspace's webhook endpoints (stores/webhooks.ts): registered with their URL checked and their secret
 * made, listed, deleted, their secret rotated.
 */

type EndpointDeps = Pick<ApiDeps, 'stores' | 'config'>;

export function endpointView(e: WebhookEndpoint): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    status: e.status,
    disabled_reason: e.disabled_reason,
    created_at: e.created_at.toISOString(),
  };
}

export async function findEndpoint({ stores }: Pick<ApiDeps, 'stores'>, workspaceId: string, id: string): Promise<WebhookEndpoint> {
  const found = await stores.webhooks.endpoint(workspaceId, id);
  if (!found) throw new NotFoundError('Webhook endpoint not found');
  return found;
}

export async function listEndpoints({ stores }: Pick<ApiDeps, 'stores'>, workspaceId: string): Promise<WebhookEndpoint[]> {
  return (await stores.webhooks.endpoints(workspaceId)).sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}

/** Registers an endpoint: its URL checked against SSRF (every address its host resolves to), its secret made. */
export async function createEndpoint(deps: EndpointDeps, workspaceId: string, req: WebhookCreateRequest): Promise<WebhookEndpoint> {
  const refused = await checkWebhookUrl(req.url, deps.config.WEBHOOK_ALLOW_PRIVATE);
  if (refused) throw new ValidationError('Request validation failed', [{ path: ['url'], message: refused }]);
  if ((await deps.stores.webhooks.endpoints(workspaceId)).length >= MAX_WEBHOOK_ENDPOINTS) {
    throw new ConflictError(`A workspace has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`);
  }
  const endpoint: WebhookEndpoint = {
    id: newId('whk'),
    url: req.url,
    events: req.events ?? [...WEBHOOK_EVENT_TYPES],
    description: req.description ?? null,
    secrets: [{ value: newWebhookSecret(), expires_at: null }],
    status: 'enabled',
    disabled_reason: null,
    created_at: new Date(),
  };
  await deps.stores.webhooks.addEndpoint(workspaceId, endpoint);
  return endpoint;
}

export async function deleteEndpoint(deps: Pick<ApiDeps, 'stores'>, workspaceId: string, id: string): Promise<void> {
  await findEndpoint(deps, workspaceId, id);
  // Its delivery workflow finds it gone at its next try, marks what is left failed, and ends.
  await deps.stores.webhooks.removeEndpoint(workspaceId, id);
}

/** A new secret; the current one keeps signing beside it for SECRET_OVERLAP_HOURS, older ones stop now. */
export async function rotateSecret(
  deps: Pick<ApiDeps, 'stores'>,
  workspaceId: string,
  id: string,
  { expirePrevious }: { expirePrevious: boolean },
): Promise<{ secret: string; previousExpiresAt: Date }> {
  const endpoint = await findEndpoint(deps, workspaceId, id);
  const now = new Date();
  // A leaked secret stops signing at once; a routine rotation keeps it beside the new one for a while.
  const previousExpiresAt = expirePrevious ? now : new Date(now.getTime() + SECRET_OVERLAP_HOURS * 3_600_000);
  const current = endpoint.secrets.find((s) => s.expires_at === null) ?? endpoint.secrets[0];
  const secret = newWebhookSecret();
  const secrets = [
    { value: secret, expires_at: null },
    ...(expirePrevious ? [] : [{ value: current.value, expires_at: previousExpiresAt }]),
  ];
  // Only while the endpoint is there: a delete that won the race must not leave a secret without an endpoint.
  if (!(await deps.stores.webhooks.setSecrets(workspaceId, id, secrets))) throw new NotFoundError('Webhook endpoint not found');
  return { secret, previousExpiresAt };
}
