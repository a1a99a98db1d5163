import { startStack, type Stack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { postForm } from '../helpers/form-post';
import { calledWithLink } from '../helpers/call-link';

/**
 * The candidate's call link at its edges (docs/call-links.md), on the real API, worker, database and Temporal:
 * its email and that email's unsubscribe, its limit per link, and what a wrong token or an erased candidate's
 * link opens (nothing). No page is driven here: docs/call-links.md's choices are test/web/call-link.test.ts.
 */
const V1 = '/api/public/v1';

describe("the candidate's call link, at its edges", () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
    ({ key } = await stack.newWorkspace('Edgeco'));
  });
  afterAll(async () => stack?.stop());
  const called = (job: string) => calledWithLink(stack, key, job);

  it('emails the link once as the call is made, where the workspace sends them, with an unsubscribe link that works', async () => {
    const own = await stack.newWorkspace('Mailco');
    expect((await stack.request('PATCH', `${V1}/workspace`, { key: own.key, body: { email_call_links: true } })).status).toBe(200);
    {
      const { id, get, view } = await calledWithLink(stack, own.key, 'link-mail');
      const mailed = await waitFor(get, (c) => c.link_email !== null);
      expect(mailed.link_email).toMatchObject({ status: 'sent', error: null });
      const mail = (await stack.stores.providerLogs.email(`${id}/link`))!;
      expect(mail).toMatchObject({ to: 'Grace Hopper <link-mail@example.com>', subject: 'Mailco Inc will call you about Data Engineer' });
      expect(mail.text).toContain(`Your call: ${view.candidate_url}`);
      expect(mail.text).toContain('We plan to call you on');
      const unsubscribe = /^<(.+)>$/.exec(mail.headers!['List-Unsubscribe'])![1];
      const path = new URL(unsubscribe).pathname;
      expect((await fetch(stack.url + path)).status).toBe(200);
      expect((await postForm(stack.url + path, {}, 'List-Unsubscribe=One-Click')).status).toBe(200);
      const listed = (await stack.request('GET', `${V1}/suppressions?email=link-mail%40example.com`, { key: own.key })).body.data;
      expect(listed).toEqual([expect.objectContaining({ channels: ['email'], source: 'email_link' })]);
    }
  });

  it('gives a link 60 requests a minute, then answers 429 with Retry-After and changes nothing', async () => {
    const { path, get } = await called('link-limit');
    // The 61 requests land in one minute's window however slow the machine is: the limits' clock is held in it.
    await stack.limits.inOneWindow(60, async () => {
      for (let i = 0; i < 60; i++) expect((await fetch(stack.url + path, { method: 'HEAD' })).status).toBe(200);
      const tooMany = await fetch(stack.url + path);
      expect(tooMany.status).toBe(429);
      expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(tooMany.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect((await postForm(`${stack.url}${path}/decline`, {})).status).toBe(429);
    });
    expect((await get()).status).toBe('scheduled');
  });

  it("opens nothing for a wrong signature, nor for an erased candidate's link", async () => {
    const { path } = await called('link-erased');
    const wrong = path.slice(0, -1) + (path.endsWith('A') ? 'B' : 'A');
    expect((await fetch(stack.url + wrong)).status).toBe(404);
    expect((await fetch(stack.url + path)).status).toBe(200);
    expect((await stack.request('POST', `${V1}/candidates/erase`, { key, body: { email: 'link-erased@example.com' } })).status).toBe(200);
    const after = await fetch(stack.url + path);
    expect(after.status).toBe(404);
    expect(await after.text()).not.toContain('link-erased');
  });
});
