import { startStack, type Stack } from '../helpers/stack';

/**
 * What a deployment behind https gets from its settings: API answers no cache keeps, pages with HSTS and a
 * same-origin Referrer-Policy, Secure `__Host-` cookies (COOKIE_SECURE, on with an https PUBLIC_BASE_URL), and
 * forwarded headers believed only with TRUST_PROXY.
 */
describe('deployment headers and cookies', () => {
  const stacks: Stack[] = [];
  const stackWith = async (env: Record<string, string>) => {
    const stack = await startStack({ env });
    stacks.push(stack);
    return stack;
  };
  afterAll(() => Promise.all(stacks.map((s) => s.stop())));

  /** The sign-in form's cookie, as the browser is told to keep it. */
  const signInCookie = async (stack: Stack) => {
    const res = await fetch(`${stack.url}/sign-in`);
    return { status: res.status, cookie: res.headers.getSetCookie().join('\n'), headers: res.headers };
  };

  it('answers every API request with no-store and nosniff, errors included', async () => {
    const stack = await stackWith({});
    const { key } = await stack.newWorkspace('Headers');
    for (const [method, path, auth] of [
      ['GET', '/api/public/v1/calls', true],
      ['GET', '/api/public/v1/interviews/int_000000000000000000000000', true],
      ['POST', '/api/public/v1/call/initiate', false],
      ['GET', '/nowhere', false],
    ] as const) {
      const res = await stack.request(method, path, { key: auth ? key : undefined, body: method === 'POST' ? {} : undefined });
      expect({ path, cache: res.headers.get('cache-control'), sniff: res.headers.get('x-content-type-options') }).toEqual({
        path,
        cache: 'no-store',
        sniff: 'nosniff',
      });
    }
  });

  it('with an https base: Secure __Host- cookies, HSTS and a same-origin Referrer-Policy on pages', async () => {
    const stack = await stackWith({ PUBLIC_BASE_URL: 'https://hiring.test' });
    const { status, cookie, headers } = await signInCookie(stack);
    expect(status).toBe(200);
    expect(cookie).toMatch(/^__Host-hi_sign_in=[^;]+; path=\/; expires=[^;]+; samesite=lax; secure; httponly$/);
    expect(headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect(headers.get('referrer-policy')).toBe('same-origin');
  });

  it('with a plain http base, or COOKIE_SECURE=false: plain cookies and no HSTS', async () => {
    const settings: Array<Record<string, string>> = [
      { PUBLIC_BASE_URL: 'http://hiring.test' },
      { PUBLIC_BASE_URL: 'https://hiring.test', COOKIE_SECURE: 'false' },
    ];
    for (const env of settings) {
      const stack = await stackWith(env);
      const { cookie, headers } = await signInCookie(stack);
      expect({ env, cookie }).toEqual({
        env,
        cookie: expect.stringMatching(/^hi_sign_in=[^;]+; path=\/; expires=[^;]+; samesite=lax; httponly$/),
      });
      if (env.PUBLIC_BASE_URL.startsWith('http:')) expect(headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('believes X-Forwarded-Proto only with TRUST_PROXY: a form posted over a TLS-ending proxy', async () => {
    // A browser without Sec-Fetch-Site posts from https://<host>; the proxy forwards it over http.
    const post = (stack: Stack) =>
      fetch(`${stack.url}/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          origin: `https://${new URL(stack.url).host}`,
          'x-forwarded-proto': 'https',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'csrf=x&key=y',
      });
    const untrusting = await stackWith({});
    const refused = await post(untrusting);
    expect(refused.status).toBe(403); // the origin is not ours: http, as far as we know
    expect(await refused.text()).toContain('can only be sent from its own page');
    const trusting = await stackWith({ TRUST_PROXY: 'true' });
    const res = await post(trusting);
    // Past the origin check, the form is refused for its missing sign-in cookie instead: still 403, but its page says so.
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('expired or was not sent from its page');
  });
});
