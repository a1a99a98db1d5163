import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import '../../shared/formats';
import { ROUTES } from '../../api/app';
import { OPERATIONS } from '../../api/openapi/operation-table';
import { compileValidator } from '../../shared/validation';
import { callInitiateRules } from '../../shared/calls/rules';
import { inviteRules } from '../../shared/interviews/rules';
import { jobBriefRules } from '../../shared/ai/rules';
import { CallInitiateRequest, CampaignRequest } from '../../shared/calls/schema';
import { InviteRequest } from '../../shared/interviews/schema';
import { GenerateQuestionsRequest, GenerateScriptRequest, ParseJdRequest } from '../../shared/ai/schema';
import { startStack, type Stack } from '../helpers/stack';
import { SCHEMATHESIS_GROUPS } from '../helpers/schemathesis';
import { scratchDir } from '../helpers/scratch';

/** GET /openapi.json: a valid OpenAPI 3.1 document that describes every route the API has. */
describe('the OpenAPI document', () => {
  let stack: Stack;
  let document: any;
  beforeAll(async () => {
    stack = await startStack();
    const res = await stack.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    document = res.body;
  });
  afterAll(() => stack?.stop());

  it('is valid OpenAPI 3.1, with the spec version and the API-key scheme', () => {
    // @seriousme/openapi-schema-validator checks the document against the OpenAPI 3.1 schemas (its CLI: the
    // package is ESM-only).
    const file = join(scratchDir('openapi'), 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const cli = join(__dirname, '..', '..', 'node_modules', '@seriousme', 'openapi-schema-validator', 'bin', 'validate-api-cli.js');
    const output = execFileSync(process.execPath, [cli, file], { encoding: 'utf8' });
    expect(JSON.parse(output.slice(output.indexOf('{')))).toEqual({ valid: true });
    expect(document).toMatchObject({
      openapi: '3.1.0',
      info: { version: '1.0.0' },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-service-api-key' } } },
    });
  });

  it('documents every route the application mounts, and nothing it does not', () => {
    const deps = {
      config: stack.config,
      stores: stack.stores,
      operations: undefined as never,
      workflows: undefined as never,
      logger: undefined as never,
      llm: undefined as never,
      whatsappTemplates: null,
      vapiCallOptions: undefined as never,
    };
    const mounted = new Set<string>();
    for (const factory of ROUTES) {
      for (const layer of factory({ ...deps, logger: { child: () => ({}) } as never }).stack) {
        const path = String(layer.path);
        for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
          if (!path.startsWith('/docs/assets')) mounted.add(`${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
        }
      }
    }
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m} ${path}`)),
    );
    expect([...mounted].sort()).toEqual([...documented].sort());
  });

  it("puts every operation in exactly one of schemathesis's groups, so the groups fuzz every operation once", () => {
    const groups = Object.values(SCHEMATHESIS_GROUPS);
    expect(OPERATIONS.filter((op) => groups.filter((inGroup) => inGroup(op)).length !== 1).map((op) => op.operationId)).toEqual([]);
  });

  it('gives every operation of an API key a 401, and every operation its 500', () => {
    for (const op of OPERATIONS) {
      if (op.security === 'apiKey') expect(Object.keys(op.responses)).toContain('401');
      expect(Object.keys(op.responses)).toContain('500');
    }
  });

  it('shows response examples that match their schemas, and one example at least for every operation', () => {
    for (const op of OPERATIONS) {
      const examples = Object.values(op.responses).filter((r) => r.example !== undefined);
      for (const r of examples)
        expect({ op: op.operationId, valid: TypeCompiler.Compile(r.schema!).Check(r.example) }).toEqual({
          op: op.operationId,
          valid: true,
        });
      const shown =
        op.body?.example !== undefined ||
        examples.length > 0 ||
        op.tag === 'Reference' ||
        op.parameters?.some((p) => p.in === 'query') ||
        // A media file's bytes (a recording) have no example worth showing, nor does an answer with no body.
        Object.values(op.responses).some((r) => Array.isArray(r.contentType)) ||
        op.responses[204] !== undefined;
      expect({ op: op.operationId, shown }).toEqual({ op: op.operationId, shown: true });
    }
  });

  it.each([
    ['createCampaign', CampaignRequest, undefined],
    ['parseJobDescription', ParseJdRequest, undefined],
    ['initiateCalls', CallInitiateRequest, callInitiateRules],
    ['inviteCandidates', InviteRequest, inviteRules],
    ['generateQuestions', GenerateQuestionsRequest, jobBriefRules],
    ['generateScript', GenerateScriptRequest, jobBriefRules],
  ] as const)('shows an example of %s that the API accepts', (operationId, schema, rules) => {
    const op = OPERATIONS.find((o) => o.operationId === operationId)!;
    expect(() => compileValidator(schema, rules)(op.body!.example)).not.toThrow();
    expect(document.paths[op.path].post.requestBody.content['application/json'].example).toEqual(op.body!.example);
  });
});
