import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BSON, MongoClient } from 'mongodb';
import { startStack, uniqueName, type Stack } from '../helpers/stack';
import { inviteBody } from '../helpers/invite';

/**
 * Stored formats are promises (docs/configuration.md#stored-formats): a database written by an earlier release
 * keeps its meaning after the upgrade. Each fixture is that release's own database after a STOP from a phone, an
 * erasure by email, and a call and an invitation of a third person, written by its code
 * (test/fixtures/stored-formats/README.md says how):
 * - before-person-keys.json, by d7d4a02, the release before the hashes' label and the secret's name changed:
 *   CONTACT_HASH_SECRET, the `contact-keys` label, the person index's one document per key;
 * - before-label-record.json, by ff6f658: PERSON_HASH_SECRET, the `person-keys` label, the person index in
 *   buckets, and no record of which labels the database may hold.
 * This release starts on each, under the secret's name and under its earlier one.
 */
type Fixture = {
  secret: string;
  api_key: string;
  people: Record<'stopped' | 'erasedBefore' | 'erasedAfter', { id: string; name: string; email: string; phone: string }>;
  calls: string[];
  interviews: string[];
  collections: Record<string, Array<Record<string, unknown>>>;
};
const fixtureOf = (file: string) =>
  BSON.EJSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'stored-formats', file), 'utf8'), { relaxed: false }) as Fixture;
const V1 = '/api/public/v1';

/** A database of its own holding the fixture's collections as the old release left them. */
async function databaseOfTheOldRelease(fixture: Fixture): Promise<string> {
  const name = uniqueName('upgrade');
  const client = await MongoClient.connect(process.env.TEST_MONGODB_URI!);
  try {
    for (const [collection, docs] of Object.entries(fixture.collections))
      if (docs.length > 0)
        await client
          .db(name)
          .collection(collection)
          .insertMany(docs as never[]);
  } finally {
    await client.close();
  }
  return name;
}

describe.each([
  ['before-person-keys.json', 'PERSON_HASH_SECRET'],
  ['before-person-keys.json', 'CONTACT_HASH_SECRET'],
  ['before-label-record.json', 'PERSON_HASH_SECRET'],
] as const)('an upgrade from the database of %s, the secret given as %s', (file, setting) => {
  const fixture = fixtureOf(file);
  let stack: Stack;
  beforeAll(async () => {
    const env = { MONGODB_DB: await databaseOfTheOldRelease(fixture), PERSON_HASH_SECRET: '', [setting]: fixture.secret };
    stack = await startStack({ worker: true, env });
  });
  afterAll(() => stack?.stop());
  const request = (method: string, path: string, body?: unknown) => stack.request(method, `${V1}${path}`, { key: fixture.api_key, body });

  it('still refuses the phone of the STOP filed before (opted out), and lists the STOP by that phone', async () => {
    const { stopped } = fixture.people;
    await request('POST', '/campaigns', { ats_job_id: 'job-after-calls', name: 'After calls' });
    const called = await request('POST', '/call/initiate', {
      ats_job_id: 'job-after-calls',
      first_message: 'Hi',
      instructions: 'Ask about availability.',
      candidates: [{ ...stopped, id: 'after-a' }],
    });
    expect(called.status).toBe(200);
    expect(called.body.data.calls[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/opted out/i) });
    // The database was written before this release recorded which labels it may hold: both are read.
    expect(await stack.db.settings.findOne({ _id: 'person-key-labels' })).toMatchObject({ value: 'earlier-too' });
    const listed = await request('GET', `/suppressions?phone=${encodeURIComponent(stopped.phone)}`);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ phone: stopped.phone, source: 'whatsapp', channels: ['voice', 'whatsapp'] }),
    ]);
  });

  it('still refuses the email of the person erased before', async () => {
    const { erasedBefore } = fixture.people;
    const invited = await request(
      'POST',
      '/interview/invite',
      inviteBody([{ ...erasedBefore, id: 'after-c' }], { ats_job_id: 'job-after-interviews' }),
    );
    expect(invited.status).toBe(200);
    expect(invited.body.data.interviews[0]).toMatchObject({ status: 'failed' });
  });

  it('finds a person the person index filed before (in its one document per key, or its buckets): an erasure counts and blanks their call and interview', async () => {
    const { erasedAfter } = fixture.people;
    const erased = await request('POST', '/candidates/erase', { email: erasedAfter.email });
    expect(erased.status).toBe(200);
    expect(erased.body.data).toMatchObject({ calls: 1, interviews: 1 });
    const call = await stack.db.calls.findOne({ _id: fixture.calls[1] });
    expect(call).toMatchObject({ candidate: expect.objectContaining({ name: '', email: '', phone: '' }) });
    expect(JSON.stringify(await stack.db.interviews.find({ _id: { $in: fixture.interviews } }).toArray())).not.toContain(erasedAfter.email);
  });
});
