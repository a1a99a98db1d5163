import { startStack, type Stack } from '../helpers/stack';
import { invitedInterview } from '../helpers/invite';
import { CONSENT_TEXT_VERSION } from '../../shared/interviews/consent';

const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(996, 7)]);

/**
 * Consent before the first question (docs/contact-rules.md): the notice on the interview page, Start only with
 * its box ticked, and answers and recordings refused (409) from an interview without it.
 */
describe('interview consent', () => {
  let stack: Stack;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
    ({ key } = await stack.newWorkspace('Consenting'));
  });
  afterAll(() => stack?.stop());

  const form = (url: string, body: string) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });

  it('tells what is recorded, that AI assesses it, how long it is kept and how to have it deleted, before Start', async () => {
    const { path } = await invitedInterview(stack, key, 'consent-notice', [{ question: 'Say hello', type: 'video' }]);
    const page = await (await fetch(stack.url + path)).text();
    for (const words of [
      'the audio or video of your spoken and on-camera answers',
      'An AI system assesses your answers',
      'keeps your answers and recordings until it deletes them or you ask it to',
      'To have them deleted, or to ask what is kept, write to Ada Lovelace at Consenting Inc',
      'name="consent"',
      `href="${path}/opt-out">Don't contact me again`,
    ]) {
      expect(page).toContain(words);
    }
  });

  it('refuses answers and recordings of an interview started without consent with 409, until its candidate gives it', async () => {
    const questions = [
      { question: 'Written?', type: 'text' },
      { question: 'Spoken?', type: 'audio' },
    ];
    const { id, path, get } = await invitedInterview(stack, key, 'consent-legacy', questions);
    const url = stack.url + path;
    // Started before consent was asked for: as an interview under way at the upgrade stands.
    expect((await form(`${url}/start`, 'consent=given')).status).toBe(303);
    await stack.db.interviews.updateOne({ _id: id }, { $unset: { consent: '' } });

    const answer = await form(`${url}/answers/0`, 'answer=Hello');
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('Please tick the box');
    const upload = await fetch(`${url}/answers/1/recording?duration=3`, {
      method: 'POST',
      headers: { origin: stack.url, 'content-type': 'audio/webm' },
      body: webm,
    });
    expect(upload.status).toBe(409);
    expect(await upload.json()).toEqual({ message: expect.stringContaining('Please tick the box'), next: path });
    expect((await get()).body.data).toMatchObject({ status: 'started', consent: null, answers: [] });
    // The page asks for it again; given, it is kept, and the answer goes through.
    expect(await (await fetch(url)).text()).toContain('name="consent"');
    expect((await form(`${url}/start`, '')).status).toBe(422);
    expect((await form(`${url}/start`, 'consent=given')).status).toBe(303);
    expect((await get()).body.data.consent).toEqual({ given_at: expect.any(String), text_version: CONSENT_TEXT_VERSION });
    expect((await form(`${url}/answers/0`, 'answer=Hello')).status).toBe(303);
    expect((await get()).body.data.answers).toEqual([expect.objectContaining({ index: 0, text: 'Hello' })]);
  });
});
