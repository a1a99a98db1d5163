import puppeteer, { type Browser } from 'puppeteer-core';
import { provisioned } from '../../scripts/services';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks/schema';
import { OPERATIONS } from '../../api/openapi/operation-table';
import { startStack, type Stack } from '../helpers/stack';

/**
 * GET /docs in a real browser: headless Chromium (Debian's package, installed by scripts/provision.sh) loads
 * the reference page, which fetches only from the service itself, logs no error, and lists every operation.
 */
describe('the API reference page in headless Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  beforeAll(async () => {
    stack = await startStack();
    browser = await puppeteer.launch({
      executablePath: provisioned().chromium,
      headless: true,
      // Root in a container has no user namespace for Chromium's sandbox.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('loads without console errors, from the service alone, and lists every operation', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('requestfailed', (r) => errors.push(`${r.url()} failed: ${r.failure()?.errorText}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(stack.url) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    const res = await page.goto(`${stack.url}/docs`, { waitUntil: 'networkidle0' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => {
        const method = b.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase();
        const path = b.querySelector('.opblock-summary-path')?.getAttribute('data-path');
        return `${method} ${path}`;
      }),
    );
    // Every operation, and every webhook event (OpenAPI's `webhooks`, each a POST the service makes).
    expect(listed.sort()).toEqual(
      [...OPERATIONS.map((o) => `${o.method} ${o.path}`), ...WEBHOOK_EVENT_TYPES.map((t) => `post ${t}`)].sort(),
    );
    expect(await page.$eval('.info .title', (t) => t.textContent)).toContain('1.0.0');
    expect(errors).toEqual([]);
    expect(elsewhere).toEqual([]);
  }, 60_000);
});
