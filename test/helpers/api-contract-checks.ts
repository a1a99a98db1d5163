import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import '../../shared/formats';
import { OPERATIONS } from '../../api/openapi/operation-table';
import type { Operation } from '../../api/openapi/operation';
import { PlainErrorBody } from '../../api/error-bodies';

/**
 * The API's contract check, shared by the test files of a jest worker: test/setup/service-modules-environment.js
 * loads it once per worker, outside the files' registries, as loading the operation table and compiling its
 * schemas again in every file cost about half a second of CPU a file. It only reads what it is given and
 * returns strings, so the other realm's objects never reach a test (test/helpers/api-contract.ts parses the
 * bodies in the file's own).
 *
 * Checks a response against the operation table the OpenAPI document is generated from: the status is one
 * the operation documents, the content type is the documented one, the documented headers are there, and a
 * JSON body matches the status's schema. Every API test that reads a response through Stack.request gets
 * this check. Returns the problems found, none when the response conforms.
 */
const checks = new WeakMap<TSchema, TypeCheck<TSchema>>();
const compiled = (schema: TSchema) => {
  let check = checks.get(schema);
  if (!check) checks.set(schema, (check = TypeCompiler.Compile(schema)));
  return check;
};
const matchers = OPERATIONS.map((op) => ({ op, path: new RegExp(`^${op.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

export function findOperation(method: string, path: string): Operation | undefined {
  const m = method.toLowerCase();
  return matchers.find((x) => x.op.method === m && x.path.test(path))?.op;
}

export function contractProblems(method: string, url: string, status: number, headers: Headers, body: unknown): string[] {
  const path = new URL(url, 'http://x').pathname;
  if (path.startsWith('/docs/assets/')) return [];
  // Koa answers OPTIONS itself with the path's methods, and HEAD as the GET without a body.
  if (method.toUpperCase() === 'OPTIONS' && status === 200 && headers.has('allow')) return [];
  const op = findOperation(method.toUpperCase() === 'HEAD' ? 'GET' : method, path);
  if (op && method.toUpperCase() === 'HEAD') return op.responses[status] ? [] : [`HEAD ${path} answered ${status}`];
  const known = matchers.some((x) => x.path.test(path));
  // A method no operation has on a known path is a 405, on an unknown path a 404; both are plain errors.
  if (!op) {
    const expected = known ? 405 : 404;
    if (status !== expected)
      return [`${method} ${path} answered ${status}, not the ${expected} of an undocumented ${known ? 'method' : 'path'}`];
    if (method.toUpperCase() === 'HEAD') return [];
    return compiled(PlainErrorBody).Check(body) ? [] : [`${status} body is not a plain error: ${JSON.stringify(body)}`];
  }
  const documented = op.responses[status];
  if (!documented) return [`${op.operationId} answered ${status}, which it does not document (${Object.keys(op.responses).join(', ')})`];
  const problems: string[] = [];
  const type = headers.get('content-type') ?? '';
  const expectedTypes = [documented.contentType ?? 'application/json'].flat();
  const expectedType = expectedTypes[0];
  // A response documented without a body (a 204) has no content type to check: it must have no body instead.
  if (!documented.schema && !documented.contentType) {
    if (type !== '' || (body !== undefined && body !== null && body !== ''))
      problems.push(`${op.operationId} ${status}: a body where none is documented`);
  } else if (!expectedTypes.some((t) => type.startsWith(t))) {
    problems.push(`${op.operationId} ${status}: content-type ${type}, documented ${expectedTypes.join(' or ')}`);
  }
  for (const name of Object.keys(documented.headers ?? {})) {
    if (!headers.has(name)) problems.push(`${op.operationId} ${status}: header ${name} is documented but missing`);
  }
  if (documented.schema && expectedType === 'application/json') {
    const check = compiled(documented.schema);
    if (!check.Check(body)) {
      const first = check.Errors(body).First();
      problems.push(
        `${op.operationId} ${status}: body does not match its schema at ${first?.path || '/'}: ${first?.message}; body ${JSON.stringify(body).slice(0, 500)}`,
      );
    }
  }
  return problems;
}
