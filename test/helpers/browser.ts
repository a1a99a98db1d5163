import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import axe from 'axe-core';
import { provisioned } from '../../scripts/services';

/** Headless Chromium from Debian's package (scripts/provision.sh), as the page tests drive it. */
export function launchBrowser(opts: { microphoneFile?: string; denyMicrophone?: boolean } = {}): Promise<Browser> {
  return puppeteer.launch({
    executablePath: provisioned().chromium,
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox. The fake devices stand in for a
    // microphone and a camera, and grant them, for the recorded answers (or refuse them: `denyMicrophone`);
    // `microphoneFile`: a WAV the fake microphone plays, looped.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--use-fake-device-for-media-stream',
      ...(opts.denyMicrophone ? ['--deny-permission-prompts'] : ['--use-fake-ui-for-media-stream']),
      ...(opts.microphoneFile ? [`--use-file-for-fake-audio-capture=${opts.microphoneFile}`] : []),
    ],
  });
}

export const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * A page in a browser context of its own (its own cookies, so a session never carries over from another test)
 * that records what it would have shown a developer: console errors, CSP violations among them.
 */
export async function openPage(browser: Browser, viewport: typeof PHONE | typeof DESKTOP): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(viewport);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => {
    if (r.status() >= 400 && r.request().resourceType() !== 'document') errors.push(`${r.url()} answered ${r.status()}`);
  });
  return { page, errors };
}

/**
 * axe-core's serious and critical violations on the page, as "rule: target" lines. It runs through the
 * DevTools protocol, which the page's CSP does not govern, so the page keeps its own policy.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const results = await page.evaluate(() => (globalThis as any).axe.run(document, { resultTypes: ['violations'] }));
  return (results.violations as Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/**
 * On the interview's welcome page (opened first when `url` is given): agrees to the consent notice and starts,
 * waiting for the page that follows.
 */
export async function agreeAndStart(page: Page, url?: string): Promise<void> {
  if (url) await page.goto(url);
  await page.click('#consent');
  await Promise.all([page.waitForNavigation(), page.click('form[action$="/start"] button[type=submit]')]);
}

/** Whether the page is wider than its viewport (a sideways scroll on a phone). */
export const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** A screenshot kept for people to look at: artifacts/screenshots/<name>.png (not committed). */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const dir = join(__dirname, '..', '..', 'artifacts', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) as `${string}.png`, fullPage: true });
}
