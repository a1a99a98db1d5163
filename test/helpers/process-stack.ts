import { join } from 'node:path';
import { connectDatabase, type Database } from '../../infra/database';
import { adminStores } from '../../composition/admin-stores';
import type { ServiceProcess } from '../../scripts/bench/processes';
import { serviceProcessEnv, startServiceFromBuild } from './stack';
import { readChecked } from './api-contract';
import { scratchDir } from './scratch';

/**
 * The API and the worker as processes of their own (as `npm start` runs them with ROLE=api and ROLE=worker),
 * for the tests that kill them: a database of their own, one workspace whose calls all dial at once, and
 * every process started here killed when the file ends. It registers its hooks in the calling file.
 */
export function processStack(dbPrefix: string) {
  const running: ServiceProcess[] = [];
  const logDir = scratchDir(dbPrefix);
  const state = { env: {} as Record<string, string>, db: undefined as unknown as Database, key: '' };

  beforeAll(async () => {
    state.env = { ...(await serviceProcessEnv(dbPrefix)), SIMULATOR_CALL_SECONDS: '0' };
    state.db = await connectDatabase(state.env.MONGODB_URI, state.env.MONGODB_DB);
    const ws = await adminStores(state.db).workspaces.create({
      name: 'Crash',
      company: 'Crash Inc',
      senderFirstName: 'Ada',
      senderLastName: 'Lovelace',
    });
    state.key = ws.api_key;
    // A request's 20 calls dial at once, as the time bounds of the tests assume: waiting for a calling slot
    // (the default cap is 10, and a waiter looks again after up to 19 s) is not what they measure.
    await adminStores(state.db).workspaces.updateSettings(ws.workspace_id, { max_concurrent_calls: 20 });
  });
  afterAll(async () => {
    for (const p of running) await p.kill();
    await state.db?.db.dropDatabase();
    await state.db?.close();
  });

  return {
    logDir,
    get env() {
      return state.env;
    },
    get db() {
      return state.db;
    },
    get key() {
      return state.key;
    },
    /** Starts a process of `role` with the stack's environment and `extra` over it; its log is `<name>-<n>.log`. */
    async start(role: 'api' | 'worker', extra: Record<string, string> = {}, name: string = role): Promise<ServiceProcess> {
      const p = await startServiceFromBuild(role, { ...state.env, ...extra }, join(logDir, `${name}-${running.length}.log`));
      running.push(p);
      return p;
    },
    async post(path: string, body: unknown) {
      const res = await fetch(`http://127.0.0.1:${state.env.PORT}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-api-key': state.key },
        body: JSON.stringify(body),
      });
      return readChecked('POST', path, res);
    },
    async get(path: string) {
      const res = await fetch(`http://127.0.0.1:${state.env.PORT}/api/public/v1${path}`, { headers: { 'x-service-api-key': state.key } });
      return readChecked('GET', `/api/public/v1${path.split('?')[0]}`, res);
    },
  };
}
