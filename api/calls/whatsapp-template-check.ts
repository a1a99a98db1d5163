import type { WhatsAppTemplateCheck } from '../../providers/whatsapp/port';
import { UpstreamError, ValidationError, type Issue } from '../../shared/errors';
import type { CallInitiateRequest } from '../../shared/calls/schema';

/**
 * call/initiate's check of its WhatsApp templates against their definitions, so a template that does not
 * exist, is not approved or has other slots than the variables given is refused now, not found out when a
 * message is due. Every problem is reported, each naming its template.
 */
export async function checkWhatsAppTemplates(catalog: WhatsAppTemplateCheck, req: CallInitiateRequest): Promise<void> {
  const notifications = req.call_settings?.whatsapp_notifications;
  const issues: Issue[] = [];
  for (const kind of ['pre_call', 'fallback'] as const) {
    const t = notifications?.[kind];
    if (!t) continue;
    let found: Awaited<ReturnType<WhatsAppTemplateCheck['problemWith']>>;
    try {
      found = await catalog.problemWith(t.template_name, Object.keys(t.template_variables), req.assistant_settings?.language?.code);
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      throw new UpstreamError(`Could not look up WhatsApp template "${t.template_name}"; please retry`, err.provider, true, err.detail);
    }
    if (!found) continue;
    issues.push({
      path: ['call_settings', 'whatsapp_notifications', kind, found.on === 'template' ? 'template_name' : 'template_variables'],
      message: `WhatsApp template "${t.template_name}" ${found.problem}`,
    });
  }
  if (issues.length > 0) throw new ValidationError('Request validation failed', issues);
}
