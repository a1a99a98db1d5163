import { loggablePath } from '../../shared/public-urls';

describe('request paths as they are logged', () => {
  it("leaves out an interview link's secret, and keeps every other path as it is", () => {
    const secret = 'q3Xb9fJ2kLmN0pQrStUvWxYz_-AbCdEfGhIjKlMnOpQ';
    expect(loggablePath(`/interview/int_7a1c3e5f7b9d1f3a5c7e9b1d.${secret}`)).toBe('/interview/int_7a1c3e5f7b9d1f3a5c7e9b1d.…');
    expect(loggablePath(`/interview/int_7a1c3e5f7b9d1f3a5c7e9b1d.${secret}/answers/2/recording`)).toBe(
      '/interview/int_7a1c3e5f7b9d1f3a5c7e9b1d.…/answers/2/recording',
    );
    expect(loggablePath('/api/public/v1/interviews/int_7a1c3e5f7b9d1f3a5c7e9b1d')).toBe(
      '/api/public/v1/interviews/int_7a1c3e5f7b9d1f3a5c7e9b1d',
    );
    expect(loggablePath('/jobs/prj_1')).toBe('/jobs/prj_1');
  });

  it('masks the secret whatever the path’s case or encoding, and any long token anywhere', () => {
    const id = 'int_7a1c3e5f7b9d1f3a5c7e9b1d';
    const secret = 'q3Xb9fJ2kLmN0pQrStUvWxYz_-AbCdEfGhIjKlMnOpQ';
    for (const path of [
      `/INTERVIEW/${id}.${secret}`,
      `/Interview/${id}%2E${secret}/start`,
      `/interview/${id}.%71${secret.slice(1)}`,
      `//interview/${id}.${secret}`,
      `/%69nterview/${id}.${secret}`,
      `/elsewhere/${secret}`,
      `/interview/${id}.${secret}%ZZ`,
    ]) {
      const logged = loggablePath(path);
      expect({ path, leaks: logged.includes(secret.slice(2, 30)) }).toEqual({ path, leaks: false });
    }
    expect(loggablePath(`/Interview/${id}%2E${secret}/start`)).toBe(`/Interview/${id}.…/start`);
  });
});
