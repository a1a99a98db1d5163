import { VapiClient, VapiError } from '@vapi-ai/server-sdk';
import { isRetryableStatus, upstreamFailure } from '../../shared/errors';
import { PROVIDER_BUSY_WAIT_MS } from '../../shared/calls/capacity';
import type { AttemptReport, DialRequest, DialResult, VoiceProvider } from './port';
import { buildCreateCall, vapiCallName, type VapiCallOptions } from './vapi-assistant';
import { attemptOf, checkVapiShape, reportOf } from './vapi-reports';

export interface VapiOptions extends VapiCallOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  /** How long after a call's longest possible end its end-of-call report may still arrive (analysis included). */
  reportGraceSeconds: number;
}

/** How far before an attempt's recorded start a lost dial is looked for, to allow for clock skew. */
const LOOKUP_SKEW_MS = 5 * 60_000;

/**
 * Places calls through Vapi's API with the official SDK. The SDK's own retries are off: a create-call that
 * timed out may have placed the call, so retrying is left to the activity, which looks the attempt up first.
 */
export class VapiVoiceProvider implements VoiceProvider {
  readonly name = 'vapi';
  readonly reportWithinMs: number;
  private readonly client: VapiClient;

  constructor(private readonly opts: VapiOptions) {
    this.reportWithinMs = (opts.maxCallSeconds + opts.reportGraceSeconds) * 1000;
    this.client = new VapiClient({ token: opts.apiKey, baseUrl: opts.baseUrl, timeoutInSeconds: opts.timeoutMs / 1000, maxRetries: 0 });
  }

  async dial(req: DialRequest): Promise<DialResult> {
    try {
      const created = await this.client.calls.create(buildCreateCall(req, this.opts));
      if (!('id' in created) || typeof created.id !== 'string') throw new Error('Vapi answered create-call without a call id');
      return { accepted: true, providerCallId: created.id };
    } catch (err) {
      const status = err instanceof VapiError ? err.statusCode : undefined;
      // At its concurrency cap: the call was not placed, and may be once a call of the account ends.
      if (status === 429) {
        return {
          accepted: false,
          reason: 'provider_error',
          busy: true,
          retryAfterMs: retryAfterMs((err as VapiError).rawResponse?.headers) ?? PROVIDER_BUSY_WAIT_MS,
          detail: refusalText((err as VapiError).body),
        };
      }
      // A refusal of this very request: sending it again cannot succeed.
      if (status !== undefined && status >= 400 && !isRetryableStatus(status)) {
        const detail = refusalText((err as VapiError).body);
        return {
          accepted: false,
          reason: /customer\.number|phone number|E\.164/i.test(detail) ? 'invalid_number' : 'provider_error',
          detail,
        };
      }
      // No answer, or one worth another attempt; the activity looks the attempt up before dialling again.
      throw upstreamFailure('vapi', status ?? 0, `Vapi create-call failed: ${(err as Error).message}`);
    }
  }

  async findDial(callId: string, attempt: number, since: Date, fromNumberId?: string | null): Promise<string | null> {
    const calls = await this.client.calls.list({
      phoneNumberId: fromNumberId ?? this.opts.phoneNumberId,
      createdAtGe: new Date(since.getTime() - LOOKUP_SKEW_MS).toISOString(),
      limit: 1000,
    });
    return calls.find((c) => c.name === vapiCallName(callId, attempt))?.id ?? null;
  }

  deleteCall(providerCallId: string): Promise<'deleted' | 'gone'> {
    return deleteVapiCall(this.client, providerCallId);
  }

  async fetchReport(providerCallId: string, ids: { callId: string; attempt: number }): Promise<AttemptReport | null | 'foreign'> {
    const call = await this.client.calls.get({ id: providerCallId });
    const bad = checkVapiShape(call, 'call');
    if (bad) throw new Error(`Vapi answered GET /call/${providerCallId} with ${bad.path} ${bad.message}`);
    const named = attemptOf(call as Parameters<typeof attemptOf>[0]);
    if (named?.callId !== ids.callId || named.attempt !== ids.attempt) {
      // Its metadata names another call, or none: nothing of it is ours to keep (the caller counts it).
      return 'foreign';
    }
    if (call.status !== 'ended') return null;
    return reportOf(call as Parameters<typeof reportOf>[0], ids);
  }
}

/**
 * Vapi's DELETE /call/{id}, which removes the call with its transcript and recording (asynchronously at Vapi):
 * `gone` for a 404, an error to retry for anything else that is not a 2xx.
 */
export async function deleteVapiCall(client: VapiClient, providerCallId: string): Promise<'deleted' | 'gone'> {
  try {
    await client.calls.delete({ id: providerCallId });
    return 'deleted';
  } catch (err) {
    const status = err instanceof VapiError ? err.statusCode : undefined;
    if (status === 404) return 'gone';
    throw upstreamFailure('vapi', status ?? 0, `Vapi delete-call failed: ${(err as Error).message}`);
  }
}

/** Retry-After in seconds (or as a date), in ms; undefined when absent or unreadable. */
function retryAfterMs(headers: { get(name: string): string | null } | undefined): number | undefined {
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const ms = /^[0-9]+$/.test(value) ? Number(value) * 1_000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 5 * 60_000) : undefined;
}

/** Vapi's error body (`{message: string | string[], error, statusCode}`) as one line. */
function refusalText(body: unknown): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  if (typeof message === 'string') return message;
  return typeof body === 'string' ? body.slice(0, 500) : 'refused by Vapi';
}
