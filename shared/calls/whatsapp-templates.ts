import type { MessageKind } from './schema';
/**
 * WhatsApp message templates: which variables a template's definition has room for, whether a request's
 * template_variables fill exactly those, and the Cloud API `components` that carry them. Keys name the slots:
 * `header_1`, `body_N` (or `body_<name>` for templates with named parameters) and `button_<label>`.
 */

/** A template as the WhatsApp Business Management API returns it (`GET /{WABA_ID}/message_templates`). */
/** A template message of a call, as the service hands it to a WhatsApp provider (or keeps it, the log provider). */
export interface TemplateMessage {
  workspaceId: string;
  callId: string;
  kind: MessageKind;
  to: string;
  templateName: string;
  variables: Record<string, string>;
  /** The call's language code; picks among a template's approved languages. */
  language?: string | null;
  /** The workspace's own WhatsApp number to send from (its phone number id); absent or null: the service's. */
  fromNumberId?: string | null;
}

export interface TemplateDefinition {
  name: string;
  language: string;
  status: string;
  parameter_format?: 'POSITIONAL' | 'NAMED';
  components: Array<{
    type: string;
    format?: string;
    text?: string;
    buttons?: Array<{ type: string; text: string; url?: string }>;
  }>;
}

type Slot =
  | { key: string; component: 'header'; kind: 'text' | 'image' | 'video' | 'document'; required: true }
  | { key: string; component: 'body'; name: string; required: true }
  | { key: string; component: 'button'; index: number; subType: 'url' | 'quick_reply' | 'copy_code'; required: boolean };

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const MEDIA_HEADERS = new Set(['IMAGE', 'VIDEO', 'DOCUMENT']);

function placeholders(text: string | undefined): string[] {
  const names = [...(text ?? '').matchAll(PLACEHOLDER)].map((m) => m[1]);
  const unique = [...new Set(names)];
  return unique.every((n) => /^\d+$/.test(n)) ? unique.sort((a, b) => Number(a) - Number(b)) : unique;
}

/** Every variable slot of a template, in the order its parameters are sent. */
export function templateSlots(def: TemplateDefinition): Slot[] {
  const slots: Slot[] = [];
  for (const c of def.components) {
    const type = c.type.toUpperCase();
    if (type === 'HEADER') {
      const format = (c.format ?? 'TEXT').toUpperCase();
      if (MEDIA_HEADERS.has(format)) {
        slots.push({ key: 'header_1', component: 'header', kind: format.toLowerCase() as 'image' | 'video' | 'document', required: true });
      } else {
        for (const name of placeholders(c.text)) slots.push({ key: `header_${name}`, component: 'header', kind: 'text', required: true });
      }
    } else if (type === 'BODY') {
      for (const name of placeholders(c.text)) slots.push({ key: `body_${name}`, component: 'body', name, required: true });
    } else if (type === 'BUTTONS') {
      (c.buttons ?? []).forEach((b, index) => {
        const key = `button_${b.text}`;
        const bt = b.type.toUpperCase();
        if (bt === 'URL' && placeholders(b.url).length > 0) slots.push({ key, component: 'button', index, subType: 'url', required: true });
        else if (bt === 'COPY_CODE') slots.push({ key, component: 'button', index, subType: 'copy_code', required: true });
        // A quick reply's payload is optional: without one WhatsApp returns the button's text.
        else if (bt === 'QUICK_REPLY') slots.push({ key, component: 'button', index, subType: 'quick_reply', required: false });
      });
    }
  }
  return slots;
}

/** What is wrong with filling `def` with variables named `keys`; empty when they fit its slots exactly. */
export function templateVariableProblems(def: TemplateDefinition, keys: string[]): string[] {
  const slots = templateSlots(def);
  const known = new Set(slots.map((s) => s.key));
  const given = new Set(keys);
  const missing = slots.filter((s) => s.required && !given.has(s.key)).map((s) => s.key);
  const unknown = keys.filter((k) => !known.has(k));
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`needs ${list(missing)}`);
  if (unknown.length > 0) {
    problems.push(`has no slot ${list(unknown)} (its slots: ${slots.length > 0 ? list(slots.map((s) => s.key)) : 'none'})`);
  }
  return problems;
}

/** Picks the approved definition to send: the one in `language` (or its base language) when there is one. */
export function chooseTemplate(
  defs: TemplateDefinition[],
  name: string,
  language?: string | null,
): { template: TemplateDefinition } | { problem: string } {
  const named = defs.filter((d) => d.name === name);
  if (named.length === 0) return { problem: 'does not exist in the WhatsApp Business account' };
  const approved = named.filter((d) => d.status.toUpperCase() === 'APPROVED');
  if (approved.length === 0) return { problem: `is not approved (status ${named.map((d) => d.status).join(', ')})` };
  const want = (language ?? '').replace('-', '_').toLowerCase();
  const base = want.split('_')[0];
  const match =
    approved.find((d) => d.language.toLowerCase() === want) ??
    approved.find((d) => base !== '' && d.language.toLowerCase().split('_')[0] === base);
  return { template: match ?? approved[0] };
}

/** The Cloud API `template.components` for a template filled with checked variables. */
export function buildComponents(def: TemplateDefinition, variables: Record<string, string>): Array<Record<string, unknown>> {
  const slots = templateSlots(def).filter((s) => variables[s.key] !== undefined);
  const components: Array<Record<string, unknown>> = [];
  const header = slots.filter((s) => s.component === 'header');
  if (header.length > 0) {
    components.push({
      type: 'header',
      parameters: header.map((s) =>
        s.kind === 'text' ? { type: 'text', text: variables[s.key] } : { type: s.kind, [s.kind]: { link: variables[s.key] } },
      ),
    });
  }
  const body = slots.filter((s): s is Extract<Slot, { component: 'body' }> => s.component === 'body');
  if (body.length > 0) {
    const named = def.parameter_format === 'NAMED' || body.some((s) => !/^\d+$/.test(s.name));
    components.push({
      type: 'body',
      parameters: body.map((s) => ({ type: 'text', ...(named ? { parameter_name: s.name } : {}), text: variables[s.key] })),
    });
  }
  for (const s of slots) {
    if (s.component !== 'button') continue;
    const value = variables[s.key];
    const parameter =
      s.subType === 'url'
        ? { type: 'text', text: value }
        : s.subType === 'copy_code'
          ? { type: 'coupon_code', coupon_code: value }
          : { type: 'payload', payload: value };
    components.push({ type: 'button', sub_type: s.subType, index: String(s.index), parameters: [parameter] });
  }
  return components;
}

function list(keys: string[]): string {
  return keys.map((k) => `"${k}"`).join(', ');
}
