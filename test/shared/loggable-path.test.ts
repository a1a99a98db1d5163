import { loggablePath } from '../../shared/public-urls';

describe('request paths as they are logged', () => {
  const id = 'int_7a1c3e5f7b9d1f3a5c7e9b1d';
  const secret = 'q3Xb9fJ2kLmN0pQrStUvWxYz_-AbCdEfGhIjKlMnOpQ';

  it("masks a candidate's link by its route, and keeps every other path as it is", () => {
    expect(loggablePath(`/interview/${id}.${secret}`)).toBe('/interview/…');
    expect(loggablePath(`/interview/${id}.${secret}/answers/2/recording`)).toBe('/interview/…/answers/2/recording');
    expect(loggablePath(`/u/${id}.abc`)).toBe('/u/…');
    expect(loggablePath('/jobs/prj_1')).toBe('/jobs/…');
    expect(loggablePath(`/call/call_7a1c3e5f7b9d1f3a5c7e9b1d.${secret}/time`)).toBe('/call/…/time');
    expect(loggablePath(`/CALL/call_7a1c3e5f7b9d1f3a5c7e9b1d.${secret}`)).toBe('/CALL/…');
    expect(loggablePath(`/api/public/v1/interviews/${id}`)).toBe(`/api/public/v1/interviews/${id}`);
    expect(loggablePath('/projects/prj_1')).toBe('/projects/prj_1');
  });

  it('masks the token whatever the path’s case or encoding, and any long token anywhere', () => {
    for (const path of [
      `/INTERVIEW/${id}.${secret}`,
      `/Interview/${id}%2E${secret}/start`,
      `/interview/${id}.%71${secret.slice(1)}`,
      `//interview/${id}.${secret}`,
      `/%69nterview/${id}.${secret}`,
      `/U/${id}.${secret.slice(0, 10)}`,
      `/%75/${id}.${secret.slice(0, 10)}`,
      `/u/${id}%2F${secret.slice(0, 10)}`,
      `/JOBS/${id}`,
      `/elsewhere/${secret}`,
      `/interview/${id}.${secret}%ZZ`,
    ]) {
      const logged = loggablePath(path);
      expect({ path, leaks: logged.includes(secret.slice(2, 9)) || logged.includes(id) }).toEqual({
        path,
        leaks: path.startsWith('/elsewhere') && logged.includes(id),
      });
    }
    expect(loggablePath(`/Interview/${id}%2E${secret}/start`)).toBe(`/Interview/…/start`);
  });
});
