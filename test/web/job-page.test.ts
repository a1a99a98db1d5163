import type { Browser } from 'puppeteer-core';
import { startStack, type Stack } from '../helpers/stack';
import { inviteBody, inviteCandidate } from '../helpers/invite';
import { DESKTOP, PHONE, axeViolations, keepScreenshot, launchBrowser, openPage, scrollsSideways } from '../helpers/browser';
import { CONTENT_SECURITY_POLICY } from '../../web/headers';

/** The public job page at `job_url`, in a real browser: what a candidate or a job board reads. */
describe('the job page', () => {
  let stack: Stack;
  let browser: Browser;
  let jobPath: string;
  let campaignProject: string;
  const description = 'Own our pipelines end to end.\nMentor two engineers.\n\n<script>alert("x")</script> & ship <b>fast</b>.';
  beforeAll(async () => {
    stack = await startStack();
    browser = await launchBrowser();
    const { key } = await stack.newWorkspace('Jobpage');
    const invited = await stack.request('POST', '/api/public/v1/interview/invite', {
      key,
      body: inviteBody([inviteCandidate(1)], { ats_job_id: 'job-page-1', job_description: description, work_type: 'Remote' }),
    });
    expect(invited.status).toBe(200);
    jobPath = new URL(invited.body.data.job_url).pathname;
    const campaign = await stack.request('POST', '/api/public/v1/campaigns', {
      key,
      body: { ats_job_id: 'job-page-campaign', name: 'Calls' },
    });
    campaignProject = campaign.body.data.project_id;
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows the job and only the company of the workspace, escaped, with its paragraphs', async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    const res = await page.goto(stack.url + jobPath, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(res?.headers()['referrer-policy']).toBe('same-origin');
    expect(await page.title()).toBe('Senior Data Engineer at Jobpage Inc');
    expect(await page.$eval('h1', (h) => h.textContent)).toBe('Senior Data Engineer');
    const facts = await page.$$eval('.facts dd', (dd) => dd.map((d) => d.textContent));
    expect(facts).toEqual(['London, UK', 'Remote', 'Full Time', 'Senior', '5–8 years']);
    expect(await page.$$eval('#required + ul li', (li) => li.map((l) => l.textContent))).toEqual(['Python', 'Apache Spark', 'SQL']);
    expect(await page.$$eval('#nice + ul li', (li) => li.map((l) => l.textContent))).toEqual(['Kafka', 'dbt', 'Airflow']);
    // Two paragraphs; the markup in the text is text, and ran nothing.
    const paragraphs = await page.$$eval('.description p', (ps) => ps.map((p) => p.textContent));
    expect(paragraphs).toEqual(['Own our pipelines end to end.\nMentor two engineers.', '<script>alert("x")</script> & ship <b>fast</b>.']);
    expect(await page.$$eval('.description script, .description b', (n) => n.length)).toBe(0);
    expect(errors).toEqual([]);
    await keepScreenshot(page, 'job-page-desktop');
  });

  it('carries schema.org JobPosting JSON-LD that parses', async () => {
    const { page } = await openPage(browser, DESKTOP);
    await page.goto(stack.url + jobPath);
    const blocks = await page.$$eval('script[type="application/ld+json"]', (s) => s.map((x) => x.textContent ?? ''));
    expect(blocks).toHaveLength(1);
    const posting = JSON.parse(blocks[0]);
    expect(posting).toMatchObject({
      '@context': 'https://schema.org/',
      '@type': 'JobPosting',
      title: 'Senior Data Engineer',
      description,
      employmentType: 'FULL_TIME',
      jobLocationType: 'TELECOMMUTE',
      hiringOrganization: { '@type': 'Organization', name: 'Jobpage Inc' },
      jobLocation: { address: { addressLocality: 'London, UK' } },
      experienceRequirements: { monthsOfExperience: 60 },
    });
    expect(new Date(posting.datePosted).getTime()).not.toBeNaN();
    // The description's "</script>" could not close the block: it is written as \u003c/script>.
    expect(blocks[0]).not.toContain('</script>');
  });

  it('reads well on a phone and passes axe-core at both sizes', async () => {
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const { page, errors } = await openPage(browser, viewport);
      await page.goto(stack.url + jobPath);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      if (name === 'phone') await keepScreenshot(page, 'job-page-phone');
    }
  });

  it('is a 404 page for an unknown id and for a campaign project, which has no job', async () => {
    for (const path of ['/jobs/prj_unknown', `/jobs/${campaignProject}`]) {
      const { page } = await openPage(browser, PHONE);
      const res = await page.goto(stack.url + path);
      expect(res?.status()).toBe(404);
      expect(res?.headers()['content-type']).toMatch(/^text\/html/);
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('Page not found');
      expect(await axeViolations(page)).toEqual([]);
      if (path.endsWith('unknown')) await keepScreenshot(page, 'not-found-phone');
    }
  });
});
