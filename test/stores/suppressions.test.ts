import { connectDatabase, type Database } from '../../infra/database';
import { suppressionStore } from '../../stores/suppressions';
import { SUPPRESSION_CHANNELS, type SuppressionChannel } from '../../shared/suppressions/schema';
import { uniqueName } from '../helpers/stack';

/**
 * The suppression list on the real database (FerretDB by default, whose updates are unisolated
 * read-then-writes): what is filed at the same moment is all kept, and an entry taken out stops refusing.
 */
describe('suppression store', () => {
  let db: Database;
  let store: ReturnType<typeof suppressionStore>;
  const workspace = (id: string) => ({ _id: id, has_suppressions: true });
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('suppressions'));
    store = suppressionStore(db, { workspaces: { markSuppressions: async () => undefined } });
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  it('keeps every one of 20 entries filed on one phone and email at once, each on its own channel', async () => {
    const ws = uniqueName('ws');
    const person = { phone: '+14155550101', email: 'same.person@example.com' };
    const entries = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        store.add({ workspaceId: ws, ...person, channels: [SUPPRESSION_CHANNELS[n % 3]], source: 'api' }),
      ),
    );
    expect(new Set(entries.map((e) => e._id)).size).toBe(20);
    expect([...(await store.channelsFor(workspace(ws), person))].sort()).toEqual([...SUPPRESSION_CHANNELS].sort());
    // Each entry is enforced: taking out all but one leaves exactly its channel refused.
    const keep = entries[1];
    await Promise.all(entries.filter((e) => e !== keep).map((e) => store.remove(e)));
    expect([...(await store.channelsFor(workspace(ws), person))]).toEqual(keep.channels);
    expect([...(await store.channelsFor(workspace(ws), { phone: person.phone }))]).toEqual(keep.channels);
  });

  it('stops refusing what an entry taken out covered, and keeps refusing what another still covers', async () => {
    const ws = uniqueName('ws');
    const phone = '+14155550102';
    const voice = await store.add({ workspaceId: ws, phone, channels: ['voice'], source: 'api' });
    const both = await store.add({ workspaceId: ws, phone, channels: ['voice', 'whatsapp'] as SuppressionChannel[], source: 'api' });
    await store.remove(both);
    expect([...(await store.channelsFor(workspace(ws), { phone }))]).toEqual(['voice']);
    await store.remove(voice);
    expect([...(await store.channelsFor(workspace(ws), { phone }))]).toEqual([]);
    expect(await store.get(ws, voice._id)).toBeNull();
  });
});
