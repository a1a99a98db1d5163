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
});
