import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase, type Database } from '../../infra/database';
import { adminStores } from '../../composition/admin-stores';
import { startServiceProcess, type ServiceProcess } from '../../scripts/bench/processes';
import { readChecked } from '../helpers/api-contract';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { releaseImage, releases } from '../helpers/releases';
import { serviceProcessEnv, startServiceFromBuild } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

const V1 = '/api/public/v1';

/**
 * An upgrade from the latest release CHANGELOG.md names (docs/tests.md, "Releases"): the release's code (the
 * production image of a worktree of its commit; the checkout itself when its tree is the release's, as release
 * 1's was) runs the API and the worker and leaves work under way: three calls scheduled an hour ahead, one
 * waiting an hour for its retry, an interview invited and one in progress. Its processes stop, and the checkout's
 * start on the same database and task queue: every call and interview the release left carries on, and finishes
 * (two candidates ask on their links to be called now), cancels and erases as it would have.
 */
describe('an upgrade from the latest release', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'hiring-upgrade-'));
  const running: ServiceProcess[] = [];
  let db: Database;
  afterAll(async () => {
    for (const p of running) await p.kill();
    await db?.db.dropDatabase();
    await db?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('carries on the calls and interviews the release left: they finish, cancel and erase as usual', async () => {
    // UPGRADE_FROM=<commit> starts from that commit instead (to try the upgrade from any code).
    const [named] = releases();
    expect(named).toBeDefined();
    const latest = process.env.UPGRADE_FROM ? { ...named, commit: process.env.UPGRADE_FROM } : named;
    const image = releaseImage(latest, scratch);
    const env: Record<string, string> = { ...(await serviceProcessEnv('upgrade')), SIMULATOR_CALL_SECONDS: '1' };
    db = await connectDatabase(env.MONGODB_URI, env.MONGODB_DB);
    const ws = await adminStores(db).workspaces.create({
      name: 'Upgrade',
      company: 'Upgrade Inc',
      senderFirstName: 'Ada',
      senderLastName: 'Lovelace',
    });
    await adminStores(db).workspaces.updateSettings(ws.workspace_id, { max_concurrent_calls: 20 });
    const start = async (role: 'api' | 'worker', of: 'release' | 'checkout') => {
      const log = join(scratch, `${of}-${role}.log`);
      // The release's image runs its own workflow bundle, as production does.
      const { WORKFLOW_BUNDLE_PATH: _bundle, ...imageEnv } = env;
      const p =
        of === 'release' && image
          ? await startServiceProcess(role, imageEnv, log, { main: join(image, 'dist', 'main.js') })
          : await startServiceFromBuild(role, env, log);
      running.push(p);
      return p;
    };
    const url = `http://127.0.0.1:${env.PORT}`;
    const call = async (method: string, path: string, body?: unknown) =>
      readChecked(
        method,
        path.split('?')[0],
        await fetch(url + path, {
          method,
          headers: { 'content-type': 'application/json', 'x-service-api-key': ws.api_key },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    const page = async (path: string, body: string) => {
      const res = await fetch(url + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(res.status).toBe(303);
    };

    // The release's processes, and the work they leave under way.
    const release = [await start('api', 'release'), await start('worker', 'release')];
    expect((await call('POST', `${V1}/campaigns`, { ats_job_id: 'up-calls', name: 'Upgrade' })).status).toBe(201);
    const person = (id: string, n: number, outcomes = 'completed') => ({
      id,
      name: 'Grace Hopper',
      email: `${id}@example.com`,
      phone: `+1415555${7000 + n}`,
      custom_fields: { simulated_outcomes: outcomes },
    });
    const initiate = async (candidates: unknown[], extra: Record<string, unknown>) => {
      const res = await call('POST', `${V1}/call/initiate`, { ats_job_id: 'up-calls', instructions: 'Ask.', candidates, ...extra });
      expect(res.body.data.calls.map((c: { status: string }) => c.status)).toEqual(candidates.map(() => 'success'));
      return res.body.data.calls.map((c: { id: string }) => c.id) as string[];
    };
    const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
    const [scheduled, toCancel, toErase] = await initiate([person('up-scheduled', 1), person('up-cancel', 2), person('up-erase', 3)], {
      schedule_at: inSeconds(3_600),
    });
    const [retried] = await initiate([person('up-retry', 4, 'missed,completed')], {
      call_settings: { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 60, unit: 'minutes' }] } },
    });
    const questions = [
      { question: 'Why this role?', type: 'text', time_limit_seconds: 120 },
      { question: 'What did you build last?', type: 'text', time_limit_seconds: 120 },
    ];
    const invited = await call(
      'POST',
      `${V1}/interview/invite`,
      inviteBody([inviteCandidate(1), inviteCandidate(2)], { ats_job_id: 'up-iv', questions }),
    );
    const [erasedInterview, answered] = invited.body.data.interviews.map((i: { id: string }) => i.id) as string[];
    const interview = async (id: string) => (await call('GET', `${V1}/interviews/${id}`)).body.data;
    const link = new URL(
      (
        await waitFor(
          () => interview(answered),
          (i) => i.status === 'invited',
        )
      ).interview_url,
    ).pathname;
    await waitFor(
      () => interview(erasedInterview),
      (i) => i.status === 'invited',
    );
    // One interview in progress: started, its first question answered.
    await page(`${link}/start`, 'consent=given');
    await page(`${link}/answers/0`, 'answer=I like the team.');
    // One call waiting for its retry: its first attempt missed.
    const get = async (id: string) => (await call('GET', `${V1}/calls/${id}`)).body.data;
    await waitFor(
      () => get(retried),
      (c) => c.attempts.length === 1 && c.attempts[0].outcome === 'failed',
      30_000,
    );

    // The upgrade: the release's processes stop, and the checkout's start on the same database and queue.
    for (const p of release) await p.stop();
    await start('api', 'checkout');
    await start('worker', 'checkout');

    // What the release left carries on: the candidates of the scheduled call and of the one waiting for its retry
    // ask on their links to be called now (an Update to the run the release started), and each is dialled and
    // completed.
    for (const id of [scheduled, retried]) await page(`${new URL((await get(id)).candidate_url).pathname}/now`, '');
    expect((await call('POST', `${V1}/calls/${toCancel}/cancel`)).status).toBe(200);
    expect((await call('POST', `${V1}/candidates/erase`, { email: 'up-erase@example.com' })).status).toBe(200);
    expect((await call('POST', `${V1}/candidates/erase`, { email: inviteCandidate(1).email })).status).toBe(200);
    await page(`${link}/answers/1`, 'answer=A pipeline.');
    await page(`${link}/finish`, '');
    const ended = await waitFor(
      async () => Promise.all([scheduled, retried, toCancel, toErase].map(get)),
      (calls) => calls.every((c) => ['completed', 'failed', 'cancelled'].includes(c.status)),
      90_000,
    );
    expect(ended.map((c) => [c.status, c.attempts.map((a: { outcome: string }) => a.outcome)])).toEqual([
      ['completed', ['completed']],
      ['completed', ['failed', 'completed']],
      ['cancelled', []],
      ['cancelled', []],
    ]);
    expect(ended[3].erased_at).not.toBeNull();
    const finished = await waitFor(
      () => interview(answered),
      (i) => i.assessment?.status === 'completed',
      60_000,
    );
    expect(finished).toMatchObject({ status: 'completed', answers: [{ text: 'I like the team.' }, { text: 'A pipeline.' }] });
    expect((await interview(erasedInterview)).erased_at).not.toBeNull();
  }, 300_000);
});
