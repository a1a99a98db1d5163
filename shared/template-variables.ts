import { splitName } from './names';

/** Built-in variables of the spec, usable as `{{name}}` in first_message, instructions and WhatsApp values. */
export const BUILT_IN_VARIABLES = [
  'candidate_first_name',
  'candidate_last_name',
  'candidate_full_name',
  'candidate_email',
  'candidate_phone',
  'sender_first_name',
  'sender_last_name',
  'sender_full_name',
  'sender_company',
] as const;

/**
 * The candidate's link to their call (docs/calls.md), usable in WhatsApp template values only (its token is a
 * credential, and first_message and instructions go to the voice provider): the whole URL for a body, and the
 * token alone for a URL button whose base URL the template fixes (`https://…/call/{{1}}`).
 */
export const CALL_LINK_VARIABLES = ['candidate_call_url', 'candidate_call_token'] as const;

export type BuiltInVariable = (typeof BUILT_IN_VARIABLES)[number];
export type CallLinkVariable = (typeof CALL_LINK_VARIABLES)[number];
export type TemplateContext = Record<BuiltInVariable, string> & Partial<Record<CallLinkVariable, string>>;

const REFERENCE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const KNOWN = new Set<string>(BUILT_IN_VARIABLES);
const WITH_LINK = new Set<string>([...BUILT_IN_VARIABLES, ...CALL_LINK_VARIABLES]);

/** Names referenced as `{{name}}` that are not built-in variables (nor, `withLink`, the call link's), in order of first appearance. */
export function unknownVariables(text: string, withLink = false): string[] {
  const known = withLink ? WITH_LINK : KNOWN;
  const unknown = new Set<string>();
  for (const [, name] of text.matchAll(REFERENCE)) if (!known.has(name)) unknown.add(name);
  return [...unknown];
}

/** Replaces every reference `context` has a value for; anything else, including text that merely looks like braces, stays. */
export function renderTemplate(text: string, context: TemplateContext): string {
  return text.replace(REFERENCE, (whole, name: string) =>
    WITH_LINK.has(name) ? (context[name as keyof TemplateContext] ?? whole) : whole,
  );
}

export function templateContext(
  candidate: { name: string; email: string; phone: string },
  sender: { first_name: string; last_name: string; company: string },
  projectCompany?: string | null,
): TemplateContext {
  const { first, last } = splitName(candidate.name);
  return {
    candidate_first_name: first,
    candidate_last_name: last,
    candidate_full_name: candidate.name,
    candidate_email: candidate.email,
    candidate_phone: candidate.phone,
    sender_first_name: sender.first_name,
    sender_last_name: sender.last_name,
    sender_full_name: [sender.first_name, sender.last_name].filter(Boolean).join(' '),
    // The job's company wins over the sender profile's, as the spec describes sender_company.
    sender_company: projectCompany || sender.company,
  };
}
