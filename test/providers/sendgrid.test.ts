import { SendGridEmailProvider } from '../../providers/email/sendgrid';
import type { EmailMessage } from '../../providers/email/port';
import { startHttpStub, type HttpStub, type StubReply } from '../helpers/http-stub';
import { startStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';
import { inviteBody, inviteCandidate } from '../helpers/invite';

const API_KEY = 'SG.test-key.secret-part';
const message: EmailMessage = {
  idempotencyKey: 'int_1',
  from: { email: 'interviews@globex.test', name: 'Globex Inc' },
  to: { email: 'grace@example.com', name: 'Grace Hopper' },
  subject: 'Your interview for Data Engineer at Globex Inc',
  text: 'Start your interview: https://hiring.test/interview/tok',
  html: '<p><a href="https://hiring.test/interview/tok">Start your interview</a></p>',
  tags: { interview_id: 'int_1', project_id: 'prj_1' },
};
// Error bodies as SendGrid's v3 API sends them.
const sgError = (message: string, field: string | null = null) => ({
  errors: [{ message, field, help: field ? 'http://sendgrid.com/docs/API_Reference/Web_API_v3/Mail/errors.html' : null }],
});

describe('SendGrid adapter against a local Mail Send API', () => {
  let stub: HttpStub;
  let next: StubReply[] = [];
  beforeAll(async () => {
    stub = await startHttpStub(() => next.shift() ?? { status: 202, headers: { 'x-message-id': 'sg-msg-1' } });
  });
  afterAll(() => stub?.close());
  beforeEach(() => {
    stub.requests.length = 0;
    next = [];
  });
  const provider = (timeoutMs = 2_000) => new SendGridEmailProvider({ apiKey: API_KEY, baseUrl: stub.url, timeoutMs });

  it('posts the v3 mail/send body with the bearer key and returns the X-Message-Id', async () => {
    const result = await provider().send(message);
    expect(result).toEqual({ sent: true, messageId: 'sg-msg-1' });
    expect(stub.requests).toHaveLength(1);
    const [req] = stub.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v3/mail/send');
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.body).toEqual({
      from: { email: 'interviews@globex.test', name: 'Globex Inc' },
      subject: message.subject,
      personalizations: [{ to: [{ email: 'grace@example.com', name: 'Grace Hopper' }] }],
      content: [
        { type: 'text/plain', value: message.text },
        { type: 'text/html', value: message.html },
      ],
      custom_args: { interview_id: 'int_1', project_id: 'prj_1' },
    });
  });

  it.each([
    [
      400,
      sgError('Does not contain a valid address.', 'personalizations.0.to.0.email'),
      'SendGrid answered 400: personalizations.0.to.0.email: Does not contain a valid address.',
    ],
    [
      401,
      sgError('The provided authorization grant is invalid, expired, or revoked'),
      'SendGrid answered 401: The provided authorization grant is invalid, expired, or revoked',
    ],
    [
      403,
      sgError('The from address does not match a verified Sender Identity.', 'from'),
      'SendGrid answered 403: from: The from address does not match a verified Sender Identity.',
    ],
  ])('treats %i as a final refusal, its text kept for the log and not for clients', async (status, body, detail) => {
    next = [{ status, body }];
    expect(await provider().send(message)).toEqual({
      sent: false,
      error: `The email provider refused the request (HTTP ${status})`,
      detail,
    });
  });

  it.each([
    [429, sgError('too many requests')],
    [500, sgError('internal error')],
    [503, undefined],
  ])('throws (to be retried) on %i', async (status, body) => {
    next = [{ status, body }];
    await expect(provider().send(message)).rejects.toThrow(`SendGrid answered ${status}`);
  });

  it('throws on a dropped connection and a timeout, never with the API key in the message', async () => {
    next = [{ drop: true }];
    const dropped = await provider()
      .send(message)
      .catch((e: Error) => e);
    next = [{ hang: true }];
    const timedOut = await provider(200)
      .send(message)
      .catch((e: Error) => e);
    for (const err of [dropped, timedOut]) {
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/^SendGrid request failed: /);
      expect(JSON.stringify(err)).not.toContain('secret-part');
      expect(String((err as Error).stack)).not.toContain('secret-part');
    }
  });

  it('emails every invitation through SendGrid when the service is configured for it', async () => {
    const stack = await startStack({
      worker: true,
      env: { EMAIL_PROVIDER: 'sendgrid', SENDGRID_API_KEY: API_KEY, SENDGRID_BASE_URL: stub.url, EMAIL_FROM: 'jobs@globex.test' },
    });
    try {
      const { key } = await stack.newWorkspace('Globex');
      const res = await stack.request('POST', '/api/public/v1/interview/invite', {
        key,
        body: inviteBody([inviteCandidate(1), inviteCandidate(2)]),
      });
      const ids = res.body.data.interviews.map((r: { id: string }) => r.id);
      const sent = () =>
        stack.db.interviews.countDocuments({
          _id: { $in: ids },
          'email.status': 'sent',
          'email.provider': 'sendgrid',
          'email.message_id': 'sg-msg-1',
        });
      expect(await waitFor(sent, (n) => n === 2)).toBe(2);
      expect(stub.requests).toHaveLength(2);
      const recipients = stub.requests.map((r) => r.body.personalizations[0].to[0].email).sort();
      expect(recipients).toEqual(['grace.1@example.com', 'grace.2@example.com']);
      expect(stub.requests[0].body.from).toEqual({ email: 'jobs@globex.test', name: 'Globex Inc' });
      expect(stub.requests.map((r) => r.body.custom_args.interview_id).sort()).toEqual([...ids].sort());
    } finally {
      await stack.stop();
    }
  });
});
