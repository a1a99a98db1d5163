import { Writable } from 'node:stream';
import pino from 'pino';
import { startService, type RunningService } from '../../composition/service';
import { testConfig } from '../helpers/stack';
import { newId } from '../../infra/ids';
import { interviewToken } from '../../infra/documents/interviews';
import { interviewDoc, projectDoc } from '../helpers/interview-doc';
import { adminStores } from '../../composition/admin-stores';

/**
 * What the request log keeps of a candidate's link: the real API's log lines, read back, never hold the
 * link's secret, however the path is written (its case, percent-encoding) while it still reaches the page.
 */
describe('request logs', () => {
  const lines: string[] = [];
  let service: RunningService;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    service = await startService(testConfig({ ROLE: 'api', LOG_LEVEL: 'info' }), pino({ level: 'info' }, sink), {
      port: 0,
      host: '127.0.0.1',
      dropDatabaseOnStop: true,
    });
  });
  afterAll(() => service?.stop());

  it("never holds an interview link's secret, whatever the path's case or encoding", async () => {
    const ws = await adminStores(service.db).workspaces.create({
      name: 'Logco',
      company: 'Logco',
      senderFirstName: 'Ada',
      senderLastName: 'L',
    });
    const project = projectDoc('prj-logs', ws.workspace_id);
    const id = newId('int');
    const token = interviewToken(id);
    const secret = token.slice(id.length + 1);
    await service.db.projects.insertOne(project);
    await service.db.interviews.insertOne({ ...interviewDoc(id, project), token });
    const variants = [
      `/interview/${token}`,
      `/INTERVIEW/${token}`,
      `/Interview/${id}%2E${secret}`,
      `/interview/${id}.%${secret.charCodeAt(0).toString(16)}${secret.slice(1)}`,
    ];
    for (const path of variants) {
      // Each reaches the candidate's page: the route matches it, so its log line is about a real link.
      expect({ path, status: (await fetch(service.apiUrl + path)).status }).toEqual({ path, status: 200 });
    }
    await new Promise((r) => setTimeout(r, 100));
    const requests = lines.filter((l) => l.includes('"msg":"request"') && /"path":"\/interview\/…"/i.test(l));
    expect(requests).toHaveLength(variants.length);
    for (const line of lines) expect(line).not.toContain(secret.slice(1, 30));
  });

  it('masks the token of an unsubscribe link and the id of a job page by their route, whatever their case', async () => {
    const ws = await adminStores(service.db).workspaces.create({
      name: 'Unsubco',
      company: 'Unsubco',
      senderFirstName: 'A',
      senderLastName: 'L',
    });
    const project = projectDoc('prj-unsub', ws.workspace_id);
    const id = newId('int');
    await service.db.projects.insertOne(project);
    await service.db.interviews.insertOne({ ...interviewDoc(id, project), token: interviewToken(id) });
    const token = await service.stores.signedTokens.unsubscribeLinks.tokenFor(id);
    for (const path of [`/u/${token}`, `/U/${token}`, `/u/${id}.short`, `/jobs/${project._id}`, `/JOBS/${project._id}`]) {
      await fetch(service.apiUrl + path);
    }
    await new Promise((r) => setTimeout(r, 100));
    const logged = lines.filter((l) => l.includes('"msg":"request"') && /"path":"\/(u|jobs)\/…"/i.test(l));
    expect(logged).toHaveLength(5);
    for (const line of lines) {
      expect(line).not.toContain(id);
      expect(line).not.toContain(project._id);
    }
  });
});
