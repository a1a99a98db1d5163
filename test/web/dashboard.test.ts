import type { Browser, Page } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { finishedInterview, inviteBody, inviteCandidate } from '../helpers/invite';
import { waitFor } from '../helpers/wait';
import { DESKTOP, PHONE, axeViolations, keepScreenshot, launchBrowser, openPage, scrollsSideways } from '../helpers/browser';

/** The project dashboard at project_url, signed in with an API key, in a real browser against the real stack. */
describe('the project dashboard', () => {
  let stack: Stack;
  let browser: Browser;
  let own: { id: string; key: string };
  let campaign: string;
  let foreign: string;
  const candidate = (id: string) => ({ id, name: `Ada ${id}`, email: `${id}@example.com`, phone: '+14155551000' });

  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { TEMPORAL_UI_URL: 'http://temporal-ui.test:8233' } });
    browser = await launchBrowser();
    own = await stack.newWorkspace('Dashco');
    await stack.request('POST', '/api/public/v1/campaigns', {
      key: own.key,
      body: { ats_job_id: 'dash-calls', name: 'Availability calls' },
    });
    const started = await stack.request('POST', '/api/public/v1/call/initiate', {
      key: own.key,
      body: {
        ats_job_id: 'dash-calls',
        candidates: ['d-1', 'd-2', 'd-3'].map(candidate),
        instructions: 'Ask {{candidate_first_name}} about availability.',
        first_message: 'Hi {{candidate_first_name}}',
      },
    });
    expect(started.status).toBe(200);
    campaign = started.body.data.project_id;
    await waitFor(
      () => stack.request('GET', '/api/public/v1/calls?ats_job_id=dash-calls&status=completed', { key: own.key }),
      (r) => r.body.data.length === 3,
      60_000,
    );
    await stack.request('POST', '/api/public/v1/interview/invite', {
      key: own.key,
      body: inviteBody([inviteCandidate(1)], { ats_job_id: 'dash-interviews' }),
    });
    const other = await stack.newWorkspace('Otherco');
    const theirs = await stack.request('POST', '/api/public/v1/campaigns', {
      key: other.key,
      body: { ats_job_id: 'dash-theirs', name: 'Theirs' },
    });
    foreign = theirs.body.data.project_id;
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const heading = (page: Page) => page.$eval('h1', (h) => h.textContent);
  const submit = (page: Page, selector = 'main button[type=submit]') => Promise.all([page.waitForNavigation(), page.click(selector)]);

  it('signs in with a key, shows the project, keeps to its workspace, refuses a forged form, and signs out', async () => {
    const { page, errors } = await openPage(browser, PHONE);
    // Not signed in: the project link leads to sign-in, and back after it.
    await page.goto(`${stack.url}/projects/${campaign}`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(await heading(page)).toBe('Sign in');
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'dashboard-sign-in-phone');

    await page.type('#key', 'hk_not-a-key');
    const [wrong] = await submit(page);
    expect(wrong?.status()).toBe(401);
    expect(await page.$eval('#key-error', (e) => e.textContent)).toContain('not an API key');
    expect(errors.splice(0)).toEqual([expect.stringContaining('status of 401')]);

    await page.type('#key', own.key);
    await submit(page);
    expect(new URL(page.url()).pathname).toBe(`/projects/${campaign}`);
    // PUBLIC_BASE_URL is https here, so the cookie is Secure and host-only (__Host-), as in a deployment.
    const session = (await page.cookies()).find((c) => c.name === '__Host-hi_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: true });

    // The campaign's three candidates, each completed, with a link to its workflow in the Temporal UI.
    expect(await heading(page)).toBe('Availability calls');
    const rows = await page.$$eval('.rows > li', (li) =>
      li.map((l) => [
        l.querySelector('h2')?.textContent,
        l.querySelector('.status')?.textContent,
        l.querySelector('a')?.getAttribute('href'),
      ]),
    );
    expect(rows.map(([name, status]) => [name, status]).sort()).toEqual([
      ['Ada D-1', 'completed'],
      ['Ada D-2', 'completed'],
      ['Ada D-3', 'completed'],
    ]);
    for (const [, , link] of rows) expect(link).toMatch(/^http:\/\/temporal-ui\.test:8233\/namespaces\/default\/workflows\/call-call_/);
    expect(await page.$$eval('nav[aria-label="Filter by status"] a', (a) => a.map((x) => x.textContent))).toContain('completed (3)');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'dashboard-project-phone');

    // Filtered by a status none has: no rows.
    await page.goto(`${stack.url}/projects/${campaign}?status=failed`);
    expect(await page.$$eval('.rows > li', (li) => li.length)).toBe(0);

    // The projects index lists both of this workspace's projects, and none of the other's.
    await page.goto(`${stack.url}/projects`);
    expect((await page.$$eval('.rows h2', (h) => h.map((x) => x.textContent))).sort()).toEqual([
      'Availability calls',
      'Senior Data Engineer',
    ]);
    expect(await axeViolations(page)).toEqual([]);

    // Another workspace's project reads as unknown.
    const theirs = await page.goto(`${stack.url}/projects/${foreign}`);
    expect(theirs?.status()).toBe(404);
    expect(await heading(page)).toBe('Page not found');
    errors.splice(0);

    // A form post without the session's CSRF token is refused, and the session stands.
    await page.goto(`${stack.url}/projects`);
    const forged = await page.evaluate(
      async () => (await fetch('/sign-out', { method: 'POST', body: new URLSearchParams({ csrf: 'forged' }) })).status,
    );
    expect(forged).toBe(403);
    // A token as long as the real one in characters but not in bytes is refused the same way.
    const wide = await page.evaluate(
      async () => (await fetch('/sign-out', { method: 'POST', body: new URLSearchParams({ csrf: 'é'.repeat(43) }) })).status,
    );
    expect(wide).toBe(403);
    // The browser reports its console messages on its own time: wait for the four before reading them.
    await waitFor(
      async () => errors.length,
      (n) => n >= 4,
      5_000,
    );
    // Each refusal is a response and a console line, in whichever order the browser reports them.
    const refusals = errors.splice(0);
    expect(refusals.filter((e) => e.includes('/sign-out answered 403'))).toHaveLength(2);
    expect(refusals.filter((e) => e.includes('status of 403'))).toHaveLength(2);
    expect(refusals).toHaveLength(4);
    await page.reload();
    expect(await heading(page)).toBe('Projects');

    // Sign-out ends the session: the dashboard asks to sign in again.
    await submit(page, 'header button[type=submit]');
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.goto(`${stack.url}/projects`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(errors).toEqual([]);
  });

  it("shows a finished interview's review and records a person's decision, as the API does", async () => {
    const { key } = await stack.newWorkspace('Reviewdash');
    const { id, get } = await finishedInterview(stack, key, 'dash-review', ['I led the migration of our billing API to TypeScript.']);
    const project = (await get()).body.data.project_id;
    const { page, errors } = await openPage(browser, PHONE);
    await page.goto(`${stack.url}/sign-in?next=/projects/${project}`);
    await page.type('#key', key);
    await submit(page);
    const decision = () => page.$eval(`[id="${id}"] .review .decision`, (p) => p.textContent);
    expect(await decision()).toContain('Not reviewed yet');

    const decide = async (choice: string, reviewer: string, note: string) => {
      await page.click(`[id="${id}"] input[name=decision][value=${choice}]`);
      await page.type(`[id="${id}"] input[name=reviewer]`, reviewer);
      if (note) await page.type(`[id="${id}"] textarea[name=note]`, note);
      const [answer] = await submit(page, `[id="${id}"] .review-form button[type=submit]`);
      expect(answer?.status()).toBe(200);
    };
    await decide('hold', 'Sam', '');
    await decide('advance', 'Dana', 'Clear and concrete.');
    expect(new URL(page.url()).pathname).toBe(`/projects/${project}`);
    expect(await decision()).toMatch(/^Advance by Dana, .* UTC.*Clear and concrete\.$/);
    expect(await page.$eval(`[id="${id}"] .review details summary`, (s) => s.textContent)).toBe('Earlier reviews (1)');
    expect((await get()).body.data).toMatchObject({
      review: {
        decision: 'advance',
        reviewer: 'Dana',
        note: 'Clear and concrete.',
        made_by: { via: 'dashboard', key_id: expect.stringMatching(/^key_/) },
      },
      review_history: [{ decision: 'hold', reviewer: 'Sam', note: null }],
      review_count: 2,
    });
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'dashboard-review-phone');
    expect(errors).toEqual([]);
  });

  it('passes axe-core on a desktop, signed in', async () => {
    const { page } = await openPage(browser, DESKTOP);
    await page.goto(`${stack.url}/sign-in?next=/projects/${campaign}`);
    await page.type('#key', own.key);
    await submit(page);
    expect(await heading(page)).toBe('Availability calls');
    expect(await axeViolations(page)).toEqual([]);
    await keepScreenshot(page, 'dashboard-project-desktop');
  });
});
