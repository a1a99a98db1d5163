import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ApiDeps } from '../deps';
import { callFamily } from '../errors';
import { publicRouter } from '../public-router';
import { compileValidator } from '../../shared/validation';
import { NotFoundError, ValidationError } from '../../shared/errors';
import type { PartnerTestDoc } from '../../infra/documents/partners';
import { credentialView } from '../../stores/partner-keys';
import {
  AshbyApiKeyBody,
  type AshbyApiKeyHint,
  PARTNER_ATS,
  PartnerCredentialCreate,
  PartnerTestCreate,
  PartnerTestPatch,
  termsProblem,
  type PartnerAts,
  type PartnerTest,
} from '../../shared/partners/schema';
import { checkWhatsAppTemplates } from '../calls/whatsapp-template-check';
import type { CallInitiateRequest } from '../../shared/calls/schema';

const validateCredential = compileValidator(PartnerCredentialCreate);
const validateAshbyKey = compileValidator(AshbyApiKeyBody);
const validateTestCreate = compileValidator(PartnerTestCreate, (v) => {
  const problem = termsProblem((v as PartnerTestCreate).kind, v as PartnerTestCreate);
  return problem ? [{ path: [problem.path], message: problem.message }] : [];
});
const validateTestPatch = compileValidator(PartnerTestPatch);

export function partnerTestView(doc: PartnerTestDoc): PartnerTest {
  return {
    id: doc._id,
    name: doc.name,
    description: doc.description,
    kind: doc.kind,
    interview: doc.interview,
    phone_screen: doc.phone_screen,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

/** The ATS a path names; a 404 for any other, as for any unknown path. */
function atsOf(ctx: Context): PartnerAts {
  const ats = ctx.params.ats as PartnerAts;
  if (!PARTNER_ATS.includes(ats)) throw new NotFoundError(`Not found: ${ctx.method} ${ctx.path}`);
  return ats;
}

/**
 * What a workspace sets up for its ATS to run our interviews and phone screens as a stage (docs/ats/): the keys
 * its ATS presents (shown once, kept as hashes, rotated with an overlap, revoked), the Ashby API key we report
 * with (write-only), and its tests. With the call family's error shapes, as the workspace's other settings.
 */
export function partnerRoutes(deps: ApiDeps): Router {
  const router = publicRouter(deps, callFamily, { bodies: true });
  const { partnerKeys, partnerTests } = deps.stores;
  const workspaceOf = (ctx: Context) => ctx.state.workspace._id;

  router.post('/partners/:ats/credentials', async (ctx) => {
    const ats = atsOf(ctx);
    const body = validateCredential(ctx.request.body ?? {});
    const { key, doc } = await partnerKeys.create(workspaceOf(ctx), ats, body.replace_after_hours);
    ctx.status = 201;
    ctx.body = { success: true, data: { ...credentialView(doc), key } };
    // The only time the key is shown: an Idempotency-Key keeps the answer without it.
    ctx.state.replayAnswer = { success: true, data: { ...credentialView(doc), key: null } };
  });

  router.get('/partners/:ats/credentials', async (ctx) => {
    const ats = atsOf(ctx);
    ctx.body = { success: true, data: (await partnerKeys.list(workspaceOf(ctx), ats)).map(credentialView) };
  });

  router.delete('/partners/:ats/credentials/:id', async (ctx) => {
    const ats = atsOf(ctx);
    if (!(await partnerKeys.revoke(workspaceOf(ctx), ats, ctx.params.id))) throw new NotFoundError('Credential not found');
    ctx.status = 204;
  });

  const ashbyKeyHint = async (ctx: Context): Promise<AshbyApiKeyHint> => {
    const hint = await partnerKeys.secretHint(workspaceOf(ctx), 'ashby');
    return hint
      ? { set: true, last4: hint.last4, updated_at: hint.updated_at.toISOString() }
      : { set: false, last4: null, updated_at: null };
  };

  router.put('/partners/ashby/api-key', async (ctx) => {
    const { api_key } = validateAshbyKey(ctx.request.body);
    await partnerKeys.putSecret(workspaceOf(ctx), 'ashby', api_key.trim());
    ctx.body = { success: true, data: await ashbyKeyHint(ctx) };
  });

  router.get('/partners/ashby/api-key', async (ctx) => {
    ctx.body = { success: true, data: await ashbyKeyHint(ctx) };
  });

  router.delete('/partners/ashby/api-key', async (ctx) => {
    if (!(await partnerKeys.removeSecret(workspaceOf(ctx), 'ashby'))) throw new NotFoundError('No Ashby API key is kept');
    ctx.status = 204;
  });

  router.post('/partner-tests', async (ctx) => {
    const body = validateTestCreate(ctx.request.body);
    await checkTemplates(deps, body.phone_screen);
    ctx.status = 201;
    ctx.body = { success: true, data: partnerTestView(await partnerTests.create(workspaceOf(ctx), body)) };
  });

  router.get('/partner-tests', async (ctx) => {
    ctx.body = { success: true, data: (await partnerTests.list(workspaceOf(ctx))).map(partnerTestView) };
  });

  const owned = async (ctx: Context) => {
    const doc = await partnerTests.owned(workspaceOf(ctx), ctx.params.id);
    if (!doc || doc.deleted_at) throw new NotFoundError('Partner test not found');
    return doc;
  };

  router.get('/partner-tests/:id', async (ctx) => {
    ctx.body = { success: true, data: partnerTestView(await owned(ctx)) };
  });

  router.patch('/partner-tests/:id', async (ctx) => {
    const doc = await owned(ctx);
    const patch = validateTestPatch(ctx.request.body);
    const problem = termsProblem(doc.kind, {
      interview: patch.interview ?? doc.interview ?? undefined,
      phone_screen: patch.phone_screen ?? doc.phone_screen ?? undefined,
    });
    if (problem) throw new ValidationError('Request validation failed', [{ path: [problem.path], message: problem.message }]);
    await checkTemplates(deps, patch.phone_screen);
    ctx.body = { success: true, data: partnerTestView(await partnerTests.update(doc, patch)) };
  });

  router.delete('/partner-tests/:id', async (ctx) => {
    await partnerTests.remove(await owned(ctx));
    ctx.status = 204;
  });
  return router;
}

/** A phone screen's WhatsApp templates checked against the catalog when the test is made, as call/initiate checks its own. */
async function checkTemplates(deps: ApiDeps, terms: PartnerTestCreate['phone_screen']): Promise<void> {
  if (terms && deps.whatsappTemplates)
    await checkWhatsAppTemplates(deps.whatsappTemplates, { ...terms, ats_job_id: '-', candidates: [] } as unknown as CallInitiateRequest);
}
