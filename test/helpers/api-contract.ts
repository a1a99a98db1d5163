import { serviceModules } from './service-modules';
import type { Answer } from './http-client';

/**
 * The API's contract check (test/helpers/api-contract-checks.ts) as the jest worker loaded it once: the
 * problems of a response with the operation table the OpenAPI document is generated from, none when it conforms.
 */
export const contractProblems: typeof import('./api-contract-checks').contractProblems = (...args) =>
  serviceModules().contract.contractProblems(...args);

/**
 * Reads a response's body (JSON when it is JSON) and throws when the response breaks the API's description.
 * The body is parsed here, in the test file's own realm, so a test compares objects of its own.
 */
export async function readChecked(
  method: string,
  url: string,
  res: Response | Answer,
): Promise<{ status: number; body: any; headers: Headers }> {
  const text = typeof res.text === 'string' ? res.text : await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* left as text so a test can see a non-JSON body */
  }
  const problems = contractProblems(method, url, res.status, res.headers, body);
  if (problems.length > 0) throw new Error(`The response breaks the API's own description:\n${problems.join('\n')}`);
  return { status: res.status, body, headers: res.headers };
}
