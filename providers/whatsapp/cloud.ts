import { providerFailureText, unansweredFailure, UpstreamError, upstreamFailure } from '../../shared/errors';
import { messageCallbackData } from './webhook';
import { buildComponents, chooseTemplate, templateVariableProblems, type TemplateDefinition } from '../../shared/calls/whatsapp-templates';
import type { PreparedMessage, SendResult, TemplateMessage, TemplateProblem, WhatsAppProvider, WhatsAppTemplateCheck } from './port';

export interface CloudApiOptions {
  baseUrl: string;
  version: string;
  accessToken: string;
  phoneNumberId: string;
  businessAccountId: string;
  timeoutMs: number;
}

async function graphRequest(opts: CloudApiOptions, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${opts.baseUrl}/${opts.version}/${path}`, {
      method,
      headers: { authorization: `Bearer ${opts.accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    // No answer at all (refused, reset, timed out): status 0, worth another try; one that may have arrived
    // leaves what it asked (a message sent) unknown.
    throw unansweredFailure('whatsapp', `WhatsApp could not be reached: ${(err as Error).message}`, err);
  }
  let json: any;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    // A Graph API error: {error: {message, type, code, error_subcode, error_data: {details}, fbtrace_id}}.
    const e = json?.error;
    const details = e?.error_data?.details;
    const message = e?.message ? `${e.message}${details && details !== e.message ? `: ${details}` : ''}` : `HTTP ${res.status}`;
    throw upstreamFailure('whatsapp', res.status, message, typeof e?.code === 'number' ? e.code : undefined);
  }
  if (json === undefined) throw new Error(`WhatsApp answered HTTP ${res.status} with a body that is not JSON`);
  return json;
}

/** How many template names the catalog remembers; the least recently used is forgotten first. */
export const TEMPLATE_CACHE_NAMES = 500;
/** A name with no template is remembered this long at most, so one created since is found soon. */
export const MISSING_TEMPLATE_SECONDS = 60;

/**
 * Template definitions from the WhatsApp Business Management API, cached per name for `cacheSeconds`, so
 * call/initiate can check templates and the sender can fill them without a lookup per message. Names come
 * from clients, so the cache is bounded (least recently used first out), and a name with no template is
 * remembered too, for a shorter time, so repeating a wrong name does not reach the Graph API each time.
 * Lookups of one name at the same time share one request.
 */
export class WhatsAppTemplateCatalog implements WhatsAppTemplateCheck {
  private readonly cache = new Map<string, { at: number; defs: TemplateDefinition[] }>();
  private readonly inFlight = new Map<string, Promise<TemplateDefinition[]>>();

  constructor(
    private readonly opts: CloudApiOptions,
    private readonly cacheSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async definitions(name: string): Promise<TemplateDefinition[]> {
    const hit = this.cache.get(name);
    if (hit) {
      const ttlSeconds = hit.defs.length > 0 ? this.cacheSeconds : Math.min(this.cacheSeconds, MISSING_TEMPLATE_SECONDS);
      if (this.now() - hit.at < ttlSeconds * 1000) {
        // Used again: to the back of the line of names to forget.
        this.cache.delete(name);
        this.cache.set(name, hit);
        return hit.defs;
      }
      this.cache.delete(name);
    }
    const pending = this.inFlight.get(name);
    if (pending) return pending;
    const lookup = this.lookUp(name).finally(() => this.inFlight.delete(name));
    this.inFlight.set(name, lookup);
    return lookup;
  }

  private async lookUp(name: string): Promise<TemplateDefinition[]> {
    const query = new URLSearchParams({ name, fields: 'name,language,status,category,parameter_format,components', limit: '100' });
    const page = (await graphRequest(this.opts, 'GET', `${this.opts.businessAccountId}/message_templates?${query}`)) as {
      data?: TemplateDefinition[];
    };
    // The name filter matches more than the exact name; only exact matches are this template.
    const defs = (page.data ?? []).filter((d) => d.name === name);
    this.cache.set(name, { at: this.now(), defs });
    if (this.cache.size > TEMPLATE_CACHE_NAMES) this.cache.delete(this.cache.keys().next().value!);
    return defs;
  }

  /** The definition to fill with variables named `keys`, or what is wrong: the template itself, or its variables. */
  async usable(name: string, keys: string[], language?: string | null): Promise<{ template: TemplateDefinition } | TemplateProblem> {
    const chosen = chooseTemplate(await this.definitions(name), name, language);
    if ('problem' in chosen) return { on: 'template', problem: chosen.problem };
    const problems = templateVariableProblems(chosen.template, keys);
    return problems.length > 0 ? { on: 'variables', problem: problems.join('; ') } : chosen;
  }

  /** Why `name` cannot carry variables named `keys`, or null when it can. */
  async problemWith(name: string, keys: string[], language?: string | null): Promise<TemplateProblem | null> {
    const usable = await this.usable(name, keys, language);
    return 'problem' in usable ? usable : null;
  }
}

/** Sends approved templates through the WhatsApp Cloud API (`POST /{version}/{phone-number-id}/messages`). */
export class CloudWhatsAppProvider implements WhatsAppProvider {
  readonly name = 'cloud';

  constructor(
    private readonly opts: CloudApiOptions,
    private readonly templates: WhatsAppTemplateCatalog,
  ) {}

  /** The template's definition, looked up (cached) before anything is sent: a failure of it leaves nothing unknown. */
  async prepare(m: TemplateMessage): Promise<PreparedMessage> {
    let chosen;
    try {
      chosen = await this.templates.usable(m.templateName, Object.keys(m.variables), m.language);
    } catch (err) {
      const refused = this.refusal(err);
      if (refused) return { ready: false, refused };
      throw err instanceof UpstreamError && err.outcomeUnknown ? upstreamFailure('whatsapp', 0, err.message) : err;
    }
    if ('problem' in chosen) return { ready: false, refused: { sent: false, error: `Template "${m.templateName}" ${chosen.problem}` } };
    const { template } = chosen;
    return { ready: true, send: () => this.post(m, template) };
  }

  async send(m: TemplateMessage): Promise<SendResult> {
    const prepared = await this.prepare(m);
    return prepared.ready ? prepared.send() : prepared.refused;
  }

  /** The one request that sends the message (`POST /{phone-number-id}/messages`). */
  private async post(m: TemplateMessage, template: TemplateDefinition): Promise<SendResult> {
    try {
      const res = (await graphRequest(this.opts, 'POST', `${m.fromNumberId ?? this.opts.phoneNumberId}/messages`, {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: m.to.replace(/^\+/, ''),
        // Meta echoes it in the message's status updates: a message whose send got no answer is found by it.
        biz_opaque_callback_data: messageCallbackData(m.callId, m.kind),
        type: 'template',
        template: {
          name: template.name,
          language: { code: template.language },
          components: buildComponents(template, m.variables),
        },
      })) as { messages?: Array<{ id?: string }> };
      const id = res.messages?.[0]?.id;
      // Accepted, so sent: with no id to follow it by, its outcome is unknown, and it is not sent again.
      if (!id) throw new UpstreamError('WhatsApp accepted the message without a message id', 'whatsapp', true, { status: 200 }, true);
      return { sent: true, providerMessageId: id };
    } catch (err) {
      const refused = this.refusal(err);
      if (refused) return refused;
      throw err;
    }
  }

  /** A final refusal (a 4xx but 408, 409, 425 and 429), as a result; null for what may pass on a later try. */
  private refusal(err: unknown): (SendResult & { sent: false }) | null {
    if (!(err instanceof UpstreamError) || err.retryable) return null;
    const code = typeof err.detail.code === 'number' ? err.detail.code : undefined;
    return { sent: false, error: providerFailureText(err), code, detail: err.message };
  }
}
