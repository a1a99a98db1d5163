import { OfflineLanguageModel } from '../../providers/llm/offline';
import type { LanguageModel } from '../../providers/llm/port';
import type { EmailMessage, EmailProvider, EmailResult } from '../../providers/email/port';
import { upstreamFailure, type UpstreamError } from '../../shared/errors';
import type { JobDetails, Question } from '../../shared/jobs/schema';

/** Providers (their ports) whose answers a test scripts, for the invitation's workflow tests. */

/** The offline model, counted, and slow enough that concurrent invitations really overlap. */
export class CountingModel extends OfflineLanguageModel implements LanguageModel {
  override readonly name = 'counting';
  calls = 0;
  constructor(private readonly failWith?: UpstreamError) {
    super();
  }
  override async generateQuestions(j: JobDetails, count: number): Promise<Question[]> {
    this.calls++;
    await new Promise((r) => setTimeout(r, 300));
    if (this.failWith) throw this.failWith;
    return super.generateQuestions(j, count);
  }
}

/** Wraps the log provider: `script` decides, per call, to throw before sending, or to send and then lose the answer. */
export class ScriptedEmail implements EmailProvider {
  readonly name = 'scripted';
  calls = 0;
  constructor(
    private readonly inner: EmailProvider,
    private readonly script: (call: number) => 'ok' | 'outage' | 'lost-response' | 'refuse',
  ) {}
  async send(m: EmailMessage): Promise<EmailResult> {
    const step = this.script(++this.calls);
    if (step === 'outage') throw upstreamFailure('sendgrid', 503, 'SendGrid answered 503');
    if (step === 'refuse') {
      return {
        sent: false,
        error: 'The email provider refused the request (HTTP 400)',
        detail: 'SendGrid answered 400: to: Does not contain a valid address.',
      };
    }
    const result = await this.inner.send(m);
    if (step === 'lost-response') throw new Error('socket hang up');
    return result;
  }
}
