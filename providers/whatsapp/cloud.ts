import type { Config } from '../../infra/config';
import { buildComponents, chooseTemplate, templateVariableProblems, type TemplateDefinition } from '../../shared/calls/whatsapp-templates';
import type { SendResult, TemplateMessage, WhatsAppProvider } from './port';

export interface CloudApiOptions {
  baseUrl: string;
  version: string;
  accessToken: string;
  phoneNumberId: string;
  businessAccountId: string;
  timeoutMs: number;
}

export function cloudApiOptions(config: Config): CloudApiOptions {
  // loadConfig guarantees these when the provider is cloud.
  return {
    baseUrl: config.WHATSAPP_BASE_URL.replace(/\/+$/, ''),
    version: config.WHATSAPP_API_VERSION,
    accessToken: config.WHATSAPP_ACCESS_TOKEN!,
    phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID!,
    businessAccountId: config.WHATSAPP_BUSINESS_ACCOUNT_ID!,
    timeoutMs: config.WHATSAPP_TIMEOUT_MS,
  };
}

/** A Graph API error (`{error: {message, type, code, error_subcode, error_data: {details}, fbtrace_id}}`), or status 0 for no answer. */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }

  /** No answer, 429 and 5xx are worth another try; any other 4xx will be refused again. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
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
    // No answer at all (refused, reset, timed out): status 0, worth another try.
    throw new GraphApiError(0, undefined, `WhatsApp could not be reached: ${(err as Error).message}`);
  }
  let json: any;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const e = json?.error;
    const details = e?.error_data?.details;
    const message = e?.message ? `${e.message}${details && details !== e.message ? `: ${details}` : ''}` : `HTTP ${res.status}`;
    throw new GraphApiError(res.status, typeof e?.code === 'number' ? e.code : undefined, message);
  }
  if (json === undefined) throw new Error(`WhatsApp answered HTTP ${res.status} with a body that is not JSON`);
  return json;
}

/**
 * Template definitions from the WhatsApp Business Management API, cached per name for `cacheSeconds`, so
 * call/initiate can check templates and the sender can fill them without a lookup per message.
 */
export class WhatsAppTemplateCatalog {
  private readonly cache = new Map<string, { at: number; defs: TemplateDefinition[] }>();

  constructor(
    private readonly opts: CloudApiOptions,
    private readonly cacheSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async definitions(name: string): Promise<TemplateDefinition[]> {
    const hit = this.cache.get(name);
    if (hit && this.now() - hit.at < this.cacheSeconds * 1000) return hit.defs;
    const query = new URLSearchParams({ name, fields: 'name,language,status,category,parameter_format,components', limit: '100' });
    const page = (await graphRequest(this.opts, 'GET', `${this.opts.businessAccountId}/message_templates?${query}`)) as {
      data?: TemplateDefinition[];
    };
    // The name filter matches more than the exact name; only exact matches are this template.
    const defs = (page.data ?? []).filter((d) => d.name === name);
    this.cache.set(name, { at: this.now(), defs });
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

export type TemplateProblem = { on: 'template' | 'variables'; problem: string };

export function whatsAppTemplates(config: Config): WhatsAppTemplateCatalog {
  return new WhatsAppTemplateCatalog(cloudApiOptions(config), config.WHATSAPP_TEMPLATE_CACHE_SECONDS);
}

/** Sends approved templates through the WhatsApp Cloud API (`POST /{version}/{phone-number-id}/messages`). */
export class CloudWhatsAppProvider implements WhatsAppProvider {
  readonly name = 'cloud';

  constructor(
    private readonly opts: CloudApiOptions,
    private readonly templates: WhatsAppTemplateCatalog,
  ) {}

  async send(m: TemplateMessage): Promise<SendResult> {
    try {
      const chosen = await this.templates.usable(m.templateName, Object.keys(m.variables), m.language);
      if ('problem' in chosen) return { sent: false, error: `Template "${m.templateName}" ${chosen.problem}` };
      const res = (await graphRequest(this.opts, 'POST', `${this.opts.phoneNumberId}/messages`, {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: m.to.replace(/^\+/, ''),
        type: 'template',
        template: {
          name: chosen.template.name,
          language: { code: chosen.template.language },
          components: buildComponents(chosen.template, m.variables),
        },
      })) as { messages?: Array<{ id?: string }> };
      const id = res.messages?.[0]?.id;
      if (!id) throw new Error('WhatsApp accepted the message without a message id');
      return { sent: true, providerMessageId: id };
    } catch (err) {
      if (err instanceof GraphApiError && !err.retryable) return { sent: false, error: err.message, code: err.code };
      throw err;
    }
  }
}
