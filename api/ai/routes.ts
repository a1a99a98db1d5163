import type Router from '@koa/router';
import type { Static, TSchema } from '@sinclair/typebox';
import type { ApiDeps } from '../deps';
import { publicRouter } from '../public-router';
import { parseJson } from '../middleware';
import { idempotent } from '../idempotent-requests';
import { jobFamily } from '../errors';
import { compileValidator } from '../../shared/validation';
import { GenerateQuestionsRequest, GenerateScriptRequest, ParseJdRequest } from '../../shared/ai/schema';
import { jobBriefRules } from '../../shared/ai/rules';
import { generateQuestions, generateScript, parseJd } from '../../operations/ai';
import { reportLimit, takeLimit } from '../limits';

/** The spec lists the generate endpoints under /ai and parse-jd under the versioned prefix; all work under both. */
const AI_PREFIXES = ['/api/public/v1/ai', '/ai'] as const;

/** The language-model operations, each with its own per-workspace limit, in the job family's error shapes. */
export function aiRoutes(deps: ApiDeps): Router {
  const { stores, config, llm } = deps;
  const limit = stores.limits.ai;
  const router = publicRouter(deps, jobFamily(config.SUPPORT_EMAIL), { bodies: false, prefix: '' });

  const operation = <T extends TSchema>(
    name: string,
    schema: T,
    run: (input: Static<T>) => Promise<unknown>,
    rules?: typeof jobBriefRules,
  ) => {
    const validate = compileValidator(schema, rules);
    for (const prefix of AI_PREFIXES) {
      router.post(
        `${prefix}/${name}`,
        reportLimit(limit, name),
        parseJson(config.BODY_LIMIT),
        idempotent(stores.idempotency),
        async (ctx) => {
          const input = validate(ctx.request.body);
          ctx.body = await takeLimit(ctx, limit, name, () => run(input));
        },
      );
    }
  };
  operation('parse-jd', ParseJdRequest, (input) => parseJd(llm, input));
  operation('generate-questions', GenerateQuestionsRequest, (input) => generateQuestions(llm, input), jobBriefRules);
  operation('generate-script', GenerateScriptRequest, (input) => generateScript(llm, input), jobBriefRules);
  return router;
}
