import { Writable } from 'node:stream';
import pino from 'pino';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { connectDatabase, type Database } from '../../infra/database';
import { testConfig, uniqueName } from '../helpers/stack';
import { buildActivityDeps } from '../../composition/activity-deps';
import { callDoc } from '../helpers/call-doc';
import { VapiVoiceProvider } from '../../providers/voice/vapi';
import { startHttpStub, type HttpStub } from '../helpers/http-stub';
import { vapiBadRequest, vapiOptions } from '../helpers/provider-wire';

/**
 * A provider's refusal quotes the person back ("customer.number +1… is invalid"): the log line keeps the
 * refusal with its numbers and addresses masked, as Temporal failures do. The dial activity on the real
 * database, the real Vapi adapter against a local server speaking Vapi's wire format.
 */
describe('refusals in the log', () => {
  let db: Database;
  let vapi: HttpStub;
  const lines: string[] = [];
  let acts: ReturnType<typeof createActivities>;

  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('refusals'));
    vapi = await startHttpStub(() =>
      vapiBadRequest(['customer.number +1 (415) 555-0123 is not a valid number; write to ada.lovelace@example.com']),
    );
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    const voice = new VapiVoiceProvider(vapiOptions(vapi.url));
    acts = createActivities(buildActivityDeps(testConfig(), { db, client: null as never, logger }, { voice, logger }));
  });
  afterAll(async () => {
    await vapi?.close();
    await db?.db.dropDatabase();
    await db?.close();
  });

  it('logs the refusal with the number and the address masked', async () => {
    const id = uniqueName('call');
    await db.calls.insertOne(callDoc(id));
    const result = await new MockActivityEnvironment().run(acts.dial, id, 1);
    expect(result).toMatchObject({ accepted: false, reason: 'invalid_number' });
    const refused = lines.filter((l) => l.includes('provider refused the call'));
    expect(refused).toHaveLength(1);
    expect(JSON.parse(refused[0]).detail).toBe('customer.number <number> is not a valid number; write to <email>');
    for (const line of lines) {
      expect(line).not.toContain('555-0123');
      expect(line).not.toContain('ada.lovelace@example.com');
    }
  });
});
