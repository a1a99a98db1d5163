import { connectDatabase, type Database } from '../../infra/database';
import { projectStore } from '../../stores/projects';
import { projectDoc } from '../helpers/interview-doc';
import { uniqueName } from '../helpers/stack';

/** The project store on the real database: a project is created once, listed, and changed in the feed. */
describe('project store', () => {
  let db: Database;
  beforeAll(async () => {
    db = await connectDatabase(process.env.TEST_MONGODB_URI!, uniqueName('pstore'));
  });
  afterAll(async () => {
    await db?.db.dropDatabase();
    await db?.close();
  });

  it('creates a project once, lists it, and changes it with a new updated_at', async () => {
    const ws = uniqueName('ws');
    const project = projectDoc(uniqueName('prj'), ws);
    const projects = projectStore(db);
    expect(await projects.create(project)).toBe('written');
    expect(await projects.create({ ...project, name: 'Another' })).toBe('duplicate');
    const listed = async () =>
      (await projects.page(ws, { match: {}, createdSince: null, updatedSince: null, limit: 10, after: null })).items.map((p) => p.name);
    expect(await listed()).toEqual([project.name]);
    const changed = await projects.change(project, { name: 'Renamed' });
    expect(changed?.name).toBe('Renamed');
    expect(changed!.updated_at.getTime()).toBeGreaterThanOrEqual(project.updated_at.getTime());
    expect(await listed()).toEqual(['Renamed']);
  });
});
