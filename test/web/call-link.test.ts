import type { Browser, Page } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { calledWithLink, phoneOf } from '../helpers/call-link';
import { postForm } from '../helpers/form-post';
import { PHONE, axeViolations, keepScreenshot, launchBrowser, openPage, scrollsSideways } from '../helpers/browser';
import { parseExposition } from '../helpers/prometheus';

/**
 * The candidate's own link to their call (docs/calls.md), in Chromium on a phone-sized screen, against the real
 * API, worker, database and Temporal with the voice simulator: each choice on the page reaches the call's
 * workflow, and the call resource shows what came of it.
 */
const V1 = '/api/public/v1';
const DAY = 86_400_000;

describe("the candidate's call link", () => {
  let stack: Stack;
  let browser: Browser;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
    browser = await launchBrowser();
    ({ key } = await stack.newWorkspace('Callco'));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const called = (job: string, extra: Record<string, unknown> = {}) => calledWithLink(stack, key, job, extra);
  /** This process's count of a choice's outcome (the stack runs in it). */
  const choices = async (choice: string, outcome: string) =>
    parseExposition(await stack.modules.metrics.registry.metrics()).find(
      (x) => x.name === 'hiring_call_link_choices_total' && x.labels.choice === choice && x.labels.outcome === outcome,
    )?.value ?? 0;
  const notice = (page: Page) => page.$eval('[role=status]', (s) => s.textContent ?? '');
  async function press(page: Page, button: string) {
    const [found] = await page.$$(`xpath/.//button[normalize-space()="${button}"]`);
    await Promise.all([page.waitForNavigation(), (found as unknown as { click(): Promise<void> }).click()]);
  }

  it('moves the call to the times picked (three at most), and calls at once when asked, then says how it ended', async () => {
    const { path, get, view } = await called('link-move');
    expect(view.candidate_url).toMatch(/^https:\/\/hiring\.test\/call\/call_[0-9a-f]{24}\.[A-Za-z0-9_-]{43}$/);
    const { page, errors } = await openPage(browser, PHONE);
    const res = await page.goto(stack.url + path);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['referrer-policy']).toBe('same-origin');
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Your call about Data Engineer');
    expect(await notice(page)).toContain('We plan to call you on');
    expect(await axeViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await keepScreenshot(page, 'call-link-phone');

    const picked: number[] = [];
    for (let n = 0; n < 3; n++) {
      const options = await page.$$eval('#at option', (o) => o.map((x) => (x as HTMLOptionElement).value));
      const at = options[3 + n * 5];
      await page.select('#at', at);
      await press(page, 'Call me then');
      expect(await notice(page)).toContain('we will call you at the time you picked');
      picked.push(Number(at));
    }
    const moved = await get();
    expect(moved).toMatchObject({ status: 'scheduled', attempts: [], candidate_time: new Date(picked[2]).toISOString() });
    expect(moved.reschedules.map((r: { to: string; by: string }) => [Date.parse(r.to), r.by])).toEqual(picked.map((t) => [t, 'candidate']));
    // No move is left: the page no longer offers one, and a fourth is refused.
    expect(await page.$('#at')).toBeNull();
    const fourth = await postForm(`${stack.url}${path}/time`, {}, `at=${picked[0]}`);
    expect(fourth.status).toBe(303);
    expect((await get()).reschedules).toHaveLength(3);

    const asked = Date.now();
    await press(page, 'Call me now');
    expect(await notice(page)).toContain('your phone rings within 30 seconds');
    const rung = await waitFor(get, (c) => c.attempts.length === 1, 30_000);
    expect(Date.parse(rung.attempts[0].started_at) - asked).toBeLessThan(30_000);
    const done = await waitFor(get, (c) => c.status === 'completed', 30_000);
    expect(done.channel).toBe('voice');
    await page.goto(stack.url + path);
    expect(await notice(page)).toContain('Thank you: your answers reached Callco Inc');
    expect(await page.$('form')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('ends the call as declined on "not interested", and dials nothing', async () => {
    const { path, get, id } = await called('link-decline');
    const { page } = await openPage(browser, PHONE);
    await page.goto(stack.url + path);
    const before = await choices('decline', 'taken');
    await press(page, "I'm not interested");
    expect(await choices('decline', 'taken')).toBe(before + 1);
    expect(await notice(page)).toContain('You told us you are not interested');
    const done = await waitFor(get, (c) => c.status === 'declined');
    expect(done).toMatchObject({ attempts: [], channel: null, next_attempt_at: null });
    const stored = await stack.db.calls.findOne({ _id: id });
    expect(stored?.events?.filter((e) => e.startsWith('call.declined'))).toHaveLength(1);
    // The person is not opted out: another call of theirs may still come.
    expect(
      (await stack.request('GET', `${V1}/suppressions?phone=${encodeURIComponent(phoneOf('link-decline'))}`, { key })).body.data,
    ).toEqual([]);
  });

  it('completes the call with the written answers (channel form), after refusing one it cannot read', async () => {
    const { path, get, id } = await called('link-form');
    const { page } = await openPage(browser, PHONE);
    await page.goto(stack.url + path);
    // A page that lets anything through (the browser's own checks aside): told what to correct, and nothing kept.
    const unreadable = await postForm(`${stack.url}${path}/form`, {}, 'years=many');
    expect(unreadable.status).toBe(422);
    expect((await get()).status).toBe('scheduled');
    expect(await stack.db.callReports.findOne({ _id: `${id}/0` })).toBeNull();
    await page.type('#q0', '7');
    await page.click('#q1-0');
    await press(page, 'Send my answers');
    expect(await notice(page)).toContain('your answers are sent');
    const done = await waitFor(get, (c) => c.status === 'completed');
    expect(done).toMatchObject({ channel: 'form', extracted_variables: { years: 7, remote: true }, attempts: [] });
  });

  it('offers only the written form once the attempts are spent (form_fallback), and takes it', async () => {
    const { path, get } = await called('link-after', {
      schedule_at: undefined,
      form_fallback: 'when_exhausted',
      candidates: [
        {
          id: 'after-c',
          name: 'Grace Hopper',
          email: 'after@example.com',
          phone: phoneOf('link-after'),
          custom_fields: { simulated_outcomes: 'missed' },
        },
      ],
    });
    const waiting = await waitFor(get, (c) => c.form_until !== null, 30_000);
    expect(waiting).toMatchObject({
      status: 'scheduled',
      next_attempt_at: null,
      attempts: [expect.objectContaining({ failure_reason: 'missed' })],
    });
    const { page } = await openPage(browser, PHONE);
    await page.goto(stack.url + path);
    expect(await notice(page)).toContain('We could not reach you by phone. You can still answer in writing until');
    expect(await page.$$eval('h2', (h) => h.map((x) => x.textContent))).toEqual(['Answer in writing', 'Not interested']);
    await page.type('#q0', '12');
    await page.click('#q1-1');
    await press(page, 'Send my answers');
    const done = await waitFor(get, (c) => c.status === 'completed');
    expect(done).toMatchObject({ channel: 'form', extracted_variables: { years: 12, remote: false }, form_until: null });
  });

  it('offers only the choices the call was made with, and refuses the others however they are sent', async () => {
    const { path, get } = await called('link-choices', { candidate_choices: ['call_now'] });
    const { page } = await openPage(browser, PHONE);
    await page.goto(stack.url + path);
    expect(await page.$$eval('h2', (h) => h.map((x) => x.textContent))).toEqual(['Call me now']);
    const before = await choices('decline', 'not_offered');
    expect((await postForm(`${stack.url}${path}/decline`, {})).status).toBe(303);
    expect((await postForm(`${stack.url}${path}/form`, {}, 'years=3&remote=Yes')).status).toBe(303);
    expect(await choices('decline', 'not_offered')).toBe(before + 1);
    expect(await get()).toMatchObject({ status: 'scheduled', channel: null, extracted_variables: null });
  });

  it('says when it can call, outside the calling window', async () => {
    // One shift a day, from two hours on (UTC): now is outside it.
    const minute = Math.floor((Date.now() % DAY) / 60_000);
    const start = (minute + 120) % 1_440;
    const shift = [{ start_minute: start, end_minute: Math.min(1_440, start + 60) }];
    const days = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
    const { path, get } = await called('link-window', {
      schedule_at: undefined,
      call_settings: { working_hours: { enabled: true, ...Object.fromEntries(days.map((d) => [d, shift])) } },
    });
    const { page } = await openPage(browser, PHONE);
    await page.goto(stack.url + path);
    await press(page, 'Call me now');
    expect(await notice(page)).toMatch(/We cannot call you at this hour\. The earliest we can call is .+ \(America\/Los_Angeles time\)\./);
    expect((await get()).attempts).toEqual([]);
  });

  it('stops every contact on "Stop contacting me", after a confirmation, and the call ends opted out', async () => {
    const { path, get } = await called('link-stop');
    const { page } = await openPage(browser, PHONE);
    await page.goto(stack.url + path);
    await Promise.all([page.waitForNavigation(), page.click(`a[href="${path}/stop"]`)]);
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Stop contacting me');
    expect((await get()).status).toBe('scheduled');
    await press(page, 'Stop contacting me');
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('You will not be contacted again');
    const done = await waitFor(get, (c) => c.status === 'cancelled');
    expect(done).toMatchObject({ cancel_reason: 'opted_out', attempts: [] });
    const listed = (await stack.request('GET', `${V1}/suppressions?source=call_page`, { key })).body.data;
    expect(listed).toEqual([expect.objectContaining({ source: 'call_page', phone: phoneOf('link-stop') })]);
    await page.goto(stack.url + path);
    expect(await notice(page)).toContain('You asked not to be contacted again');
  });
});
