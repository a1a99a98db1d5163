import { startHttpStub, type HttpStub, type RecordedRequest, type StubReply } from './http-stub';
import { send } from './http-client';
import { readChecked } from './api-contract';

/**
 * Local stand-ins for Greenhouse and Ashby, speaking their published wire formats (docs/ats/): each calls our
 * door as its ATS does (HTTP Basic with the key the workspace made for it, its fields, its paths), and takes our
 * reports as its API does (Greenhouse's bodiless PATCH of a take-home test's URL, after which it asks
 * test_status; Ashby's assessment.update, answered `{success: true}`). `failFirst` reports are answered 503.
 */

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

/** A request to our door, checked against the API's own contract (api/openapi/operation-table.ts) as every test's is. */
async function door(apiUrl: string, method: string, path: string, key: string, body?: unknown) {
  const res = await send(apiUrl + path, {
    method,
    headers: { authorization: basic(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readChecked(method, path.split('?')[0], res);
}

export interface GreenhouseStandIn {
  url: string;
  /** Its host, for GREENHOUSE_CALLBACK_HOSTS. */
  host: string;
  stub: HttpStub;
  /** Our test_status answers Greenhouse read after each PATCH of take-home test `n`'s URL, in order. */
  statuses(n: number): any[];
  listTests(key: string): ReturnType<typeof door>;
  sendTest(key: string, body: Record<string, unknown>): ReturnType<typeof door>;
  testStatus(key: string, id: string): ReturnType<typeof door>;
  /** The take-home test URL of test instance `n`, as Greenhouse gives it in send_test. */
  takeHomeUrl(n: number): string;
  /** PATCHes received for take-home test `n`, answered or not. */
  patches(n: number): RecordedRequest[];
  failFirst: number;
  stop(): Promise<void>;
}

/** Greenhouse: its `url` PATCHed when a test completes; on a 2xx it asks our test_status with the key it holds. */
export async function startGreenhouse(apiUrl: () => string, keyOf: () => string): Promise<GreenhouseStandIn> {
  /** test_status answers read after a PATCH, by the PATCHed take-home test's path: each test reads only its own. */
  const statuses = new Map<string, unknown[]>();
  /** The order each take-home test's URL was answered with (send_test's partner_interview_id). */
  const sentIds = new Map<string, string>();
  let failed = 0;
  const self = {} as GreenhouseStandIn;
  const stub = await startHttpStub((req): StubReply => {
    const m = /^\/integrations\/testing_partners\/take_home_tests\/(\d+)$/.exec(req.path);
    if (req.method !== 'PATCH' || !m) return { status: 404, body: { errors: ['Not found'] } };
    if (req.headers.authorization !== basic(keyOf())) return { status: 401, body: { errors: ['Unauthorized'] } };
    if (failed < self.failFirst) {
      failed++;
      return { status: 503, body: { errors: ['Service unavailable'] } };
    }
    // As Greenhouse does: the PATCH triggers a test_status request.
    setImmediate(() => {
      const sent = sentIds.get(req.path);
      if (sent)
        void self.testStatus(keyOf(), sent).then(
          (r) => statuses.set(req.path, [...(statuses.get(req.path) ?? []), r.body]),
          () => undefined,
        );
    });
    return { status: 200 };
  });
  const host = new URL(stub.url).host;
  Object.assign(self, {
    url: stub.url,
    host,
    stub,
    statuses: (n: number) => statuses.get(`/integrations/testing_partners/take_home_tests/${n}`) ?? [],
    failFirst: 0,
    listTests: (key: string) => door(apiUrl(), 'GET', '/partners/greenhouse/list_tests', key),
    async sendTest(key: string, body: Record<string, unknown>) {
      const res = await door(apiUrl(), 'POST', '/partners/greenhouse/send_test', key, body);
      if (res.status === 200) sentIds.set(new URL(String(body.url)).pathname, res.body.partner_interview_id);
      return res;
    },
    testStatus: (key: string, id: string) =>
      door(apiUrl(), 'GET', `/partners/greenhouse/test_status?partner_interview_id=${encodeURIComponent(id)}`, key),
    takeHomeUrl: (n: number) => `${stub.url}/integrations/testing_partners/take_home_tests/${n}`,
    patches: (n: number) =>
      stub.requests.filter((r) => r.method === 'PATCH' && r.path === `/integrations/testing_partners/take_home_tests/${n}`),
    stop: () => stub.close(),
  });
  return self;
}

export interface AshbyStandIn {
  url: string;
  stub: HttpStub;
  /** assessment.update bodies received and taken, in order. */
  updates(assessmentId?: string): any[];
  /** Phones Ashby keeps, by candidate id (its candidate.info). */
  phones: Map<string, string>;
  list(key: string): ReturnType<typeof door>;
  start(key: string, body: Record<string, unknown>): ReturnType<typeof door>;
  cancel(key: string, assessmentId: string): ReturnType<typeof door>;
  failFirst: number;
  stop(): Promise<void>;
}

/** Ashby: assessment.update and candidate.info, Basic-authenticated with the customer's API key. */
export async function startAshby(apiUrl: () => string, customerKey: string): Promise<AshbyStandIn> {
  let failed = 0;
  const taken: RecordedRequest[] = [];
  const self = {} as AshbyStandIn;
  const stub = await startHttpStub((req): StubReply => {
    if (req.headers.authorization !== basic(customerKey)) return { status: 401, body: { success: false, errors: ['invalid_api_key'] } };
    if (req.method === 'POST' && req.path === '/candidate.info') {
      const phone = self.phones.get(req.body?.id);
      return {
        status: 200,
        body: {
          success: true,
          results: { id: req.body?.id, phoneNumbers: phone ? [{ value: phone, type: 'Mobile', isPrimary: true }] : [] },
        },
      };
    }
    if (req.method === 'POST' && req.path === '/assessment.update') {
      if (failed < self.failFirst) {
        failed++;
        return { status: 503, body: { success: false, errors: ['unavailable'] } };
      }
      if (!req.body?.assessment_id || typeof req.body?.timestamp !== 'number')
        return { status: 200, body: { success: false, errors: ['invalid_input'] } };
      taken.push(req);
      return { status: 200, body: { success: true } };
    }
    return { status: 404, body: { success: false, errors: ['not_found'] } };
  });
  Object.assign(self, {
    url: stub.url,
    stub,
    phones: new Map<string, string>(),
    failFirst: 0,
    updates: (assessmentId?: string) => taken.map((r) => r.body).filter((b) => !assessmentId || b.assessment_id === assessmentId),
    list: (key: string) => door(apiUrl(), 'POST', '/partners/ashby/assessment.list', key, {}),
    start: (key: string, body: Record<string, unknown>) => door(apiUrl(), 'POST', '/partners/ashby/assessment.start', key, body),
    cancel: (key: string, assessmentId: string) =>
      door(apiUrl(), 'POST', '/partners/ashby/assessment.cancel', key, { assessment_id: assessmentId }),
    stop: () => stub.close(),
  });
  return self;
}
