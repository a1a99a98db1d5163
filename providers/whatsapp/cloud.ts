import { UpstreamError, upstreamFailure } from '../../shared/errors';
import { buildComponents, chooseTemplate, templateVariableProblems, type TemplateDefinition } from '../../shared/calls/whatsapp-templates';
import type { SendResult, TemplateMessage, TemplateProblem, WhatsAppProvider, WhatsAppTemplateCheck } from './port';

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
    // No answer at all (refused, reset, timed out): status 0, worth another try.
    throw upstreamFailure('whatsapp', 0, `WhatsApp could not be reached: ${(err as Error).message}`);
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

/**
 * Template definitions from the WhatsApp Business Management API, cached per name for `cacheSeconds`, so
 * call/initiate can check templates and the sender can fill them without a lookup per message.
 */
export class WhatsAppTemplateCatalog implements WhatsAppTemplateCheck {
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
      if (err instanceof UpstreamError && !err.retryable) {
        return { sent: false, error: err.message, code: typeof err.detail.code === 'number' ? err.detail.code : undefined };
      }
      throw err;
    }
  }
}
