import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { FEED_SETTLE_MS } from '../../infra/lists/item-list';

const V1 = '/api/public/v1';
const candidate = (id: string) => ({ id, name: `Ada ${id}`, email: `${id}@example.com`, phone: '+14155551000' });
const callBody = (job: string, ids: string[], extra: Record<string, unknown> = {}) => ({
  ats_job_id: job,
  candidates: ids.map(candidate),
  instructions: 'Ask {{candidate_first_name}} about availability.',
  first_message: 'Hi {{candidate_first_name}}',
  ...extra,
});
const range = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
const FAR = new Date(Date.now() + 30 * 86_400_000).toISOString();

describe('lists and the change feed on the real stack', () => {
  let stack: Stack;
  let key: string;
  const get = (path: string, k = key) => stack.request('GET', `${V1}${path}`, { key: k });
  const initiate = async (job: string, ids: string[], extra: Record<string, unknown> = {}) => {
    const res = await stack.request('POST', `${V1}/call/initiate`, { key, body: callBody(job, ids, extra) });
    expect(res.status).toBe(200);
    return res.body.data.calls.map((c: any) => c.id as string);
  };
  /** Every page of a query, following next_cursor; the ids in order. */
  const pages = async (query: string, k = key, between?: () => Promise<unknown>) => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/calls?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, k);
      expect(res.status).toBe(200);
      ids.push(...res.body.data.map((c: any) => c.id));
      cursor = res.body.next_cursor;
      await between?.();
    } while (cursor);
    return ids;
  };

  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { SIMULATOR_CALL_SECONDS: '0' } });
    key = (await stack.newWorkspace('Listers')).key;
    // A job per test, so each reads only the calls it made, in any order.
    for (const job of ['list-a', 'list-b', 'list-paging', 'list-feed', 'list-iso', 'list-limit']) {
      const res = await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: job, name: `Job ${job}` } });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => stack?.stop());

  it('pages to the end while new calls arrive: every call that existed once, newest first, none twice', async () => {
    const first = await initiate('list-paging', range('p1', 12), { schedule_at: FAR });
    const second = await initiate('list-paging', range('p2', 11), { schedule_at: FAR });
    let n = 0;
    const seen = await pages('ats_job_id=list-paging&limit=5', key, () => initiate('list-paging', [`late-${n++}`], { schedule_at: FAR }));
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...first, ...second].sort());
    // Newest first: the second request's calls, then the first's (one request's calls share their creation time).
    expect(new Set(seen.slice(0, second.length))).toEqual(new Set(second));
  });

  it('filters by job, candidate, status and creation time, alone and together', async () => {
    const before = new Date().toISOString();
    const a = await initiate('list-a', ['fa-1', 'fa-2', 'shared']);
    const b = await initiate('list-b', ['fb-1', 'shared'], { schedule_at: FAR });
    await waitFor(
      async () => Promise.all(a.map(async (id: string) => (await get(`/calls/${id}`)).body.data.status)),
      (s) => s.every((x: string) => x === 'completed'),
      60_000,
    );
    const sorted = (xs: string[]) => [...xs].sort();
    expect(sorted(await pages('ats_job_id=list-a'))).toEqual(sorted(a));
    expect(sorted(await pages(`candidate_id=shared&created_since=${before}`))).toEqual(sorted([a[2], b[1]]));
    expect(await pages('candidate_id=shared&ats_job_id=list-b')).toEqual([b[1]]);
    expect(sorted(await pages('ats_job_id=list-a&status=completed'))).toEqual(sorted(a));
    expect(await pages('ats_job_id=list-a&status=scheduled')).toEqual([]);
    expect(sorted(await pages('ats_job_id=list-b&status=scheduled&limit=1'))).toEqual(sorted(b));
    expect(sorted(await pages(`status=completed&created_since=${before}`))).toEqual(sorted(a));
    expect(await pages(`created_since=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
    // Each item is as its GET returns it (read from the snapshot of its last change).
    for (const query of ['ats_job_id=list-a', 'ats_job_id=list-b']) {
      const page = await get(`/calls?${query}`);
      const single = await Promise.all(page.body.data.map(async (c: any) => (await get(`/calls/${c.id}`)).body.data));
      expect(page.body.data).toEqual(single);
    }

    const project = (await stack.request('POST', `${V1}/campaigns`, { key, body: { ats_job_id: 'list-a', name: 'x' } })).body.data
      .project_id;
    const detail = await get(`/projects/${project}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      id: project,
      ats_job_id: 'list-a',
      kind: 'campaign',
      job_url: null,
      candidates: { total: 3, by_status: { completed: 3, scheduled: 0, in_progress: 0, failed: 0, cancelled: 0 } },
    });
    const projects = await get('/projects?kind=campaign&limit=100');
    expect(projects.body.data.map((p: any) => p.ats_job_id).sort()).toEqual([
      'list-a',
      'list-b',
      'list-feed',
      'list-iso',
      'list-limit',
      'list-paging',
    ]);
    expect((await get('/projects?ats_job_id=list-b')).body.data.map((p: any) => p.ats_job_id)).toEqual(['list-b']);
  });

  it('keeps workspaces apart and refuses forged and foreign cursors', async () => {
    await initiate('list-iso', ['iso-1', 'iso-2'], { schedule_at: FAR });
    const other = (await stack.newWorkspace('Elsewhere')).key;
    expect((await get('/calls?limit=100', other)).body).toEqual({ success: true, data: [], next_cursor: null });
    expect((await get('/projects', other)).body.data).toEqual([]);

    const page = await get('/calls?ats_job_id=list-iso&limit=1');
    const cursor: string = page.body.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    expect((await get(`/calls?ats_job_id=list-iso&limit=1&cursor=${cursor}`)).status).toBe(200);
    const refused = [
      get(`/calls?ats_job_id=list-iso&limit=1&cursor=${cursor}`, other),
      get(`/calls?ats_job_id=list-a&limit=1&cursor=${cursor}`),
      // Its signature's last two characters replaced: a text other than the one signed.
      get(`/calls?ats_job_id=list-iso&limit=1&cursor=${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`),
      get(`/calls?ats_job_id=list-iso&limit=1&cursor=${Buffer.from('[9e12,"x"]').toString('base64url')}.${cursor.split('.')[1]}`),
      get('/calls?cursor=garbage'),
    ];
    for (const res of await Promise.all(refused)) {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/cursor/);
    }
    // Another list's cursor, in the job family's error shape.
    const foreignList = await get(`/interviews?ats_job_id=list-iso&limit=1&cursor=${cursor}`);
    expect(foreignList.status).toBe(422);
    expect(JSON.stringify(foreignList.body)).toMatch(/cursor/);
  });

  it('takes limit from 1 to 100, 20 by default, and refuses anything else with the error shape of its family', async () => {
    await initiate('list-limit', range('lim', 21), { schedule_at: FAR });
    expect((await get('/calls?ats_job_id=list-limit')).body.data).toHaveLength(20);
    expect((await get('/calls?ats_job_id=list-limit&limit=1')).body.data).toHaveLength(1);
    expect((await get('/calls?ats_job_id=list-limit&limit=100')).body.data).toHaveLength(21);
    for (const bad of ['0', '101', '-1', '2.5', 'ten', '']) {
      const res = await get(`/calls?limit=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        code: 'VALIDATION_ERROR',
        errors: [{ field: 'limit', message: expect.any(String) }],
      });
    }
    for (const query of ['status=ringing', 'created_since=yesterday', 'updated_since=2026-13-01', 'color=blue', 'limit=5&limit=6']) {
      expect((await get(`/calls?${query}`)).status).toBe(400);
    }
    const interviews = await get('/interviews?limit=0');
    expect(interviews.status).toBe(422);
    expect(interviews.body.success).toBe(false);
  });

  it('feeds a status change made after the first page, and polls on from the last cursor', async () => {
    const since = new Date().toISOString();
    const [early] = await initiate('list-feed', ['feed-early'], { schedule_at: FAR });
    const feed = (cursor: string | null) =>
      get(`/calls?ats_job_id=list-feed&updated_since=${since}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    // The worker's own first change of the call (it is scheduled) may land after the request answered, and the
    // feed shows each change only FEED_SETTLE_MS after it: the first page is awaited, not timed.
    const first = await waitFor(
      () => feed(null),
      (r) => r.status !== 200 || r.body.data.length > 0,
      15_000,
    );
    expect(first.status).toBe(200);
    expect(first.body.data.map((c: any) => c.id)).toEqual([early]);
    expect(first.body.next_cursor).toEqual(expect.any(String));

    // A call placed now goes scheduled, in progress, completed: each is a change after the first page.
    const [late] = await stack
      .request('POST', `${V1}/call/initiate`, { key, body: callBody('list-feed', ['feed-late']) })
      .then((r) => r.body.data.calls.map((c: any) => c.id));
    await waitFor(
      async () => (await get(`/calls/${late}`)).body.data.status,
      (s) => s === 'completed',
      60_000,
    );
    const polled = await waitFor(
      async () => (await feed(first.body.next_cursor)).body,
      (b) => b.data.some((c: any) => c.id === late && c.status === 'completed'),
      15_000,
    );
    expect(polled.data.map((c: any) => c.id)).not.toContain(early);
    expect(polled.next_cursor).toEqual(expect.any(String));
    // Polling on from the last cursor gives nothing that is already seen.
    await new Promise((r) => setTimeout(r, FEED_SETTLE_MS + 200));
    expect((await feed(polled.next_cursor)).body.data).toEqual([]);
    // The same feed filtered by status shows the call only under its status now.
    expect((await get(`/calls?updated_since=${since}&status=completed&ats_job_id=list-feed`)).body.data.map((c: any) => c.id)).toEqual([
      late,
    ]);
  });
});
