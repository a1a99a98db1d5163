import type { VNode } from 'preact';
import { Layout } from '../layout';
import { LIVE_CAPTURE_PATH, LIVE_PATH } from '../assets/routes';
import { OptOutLink, type InterviewFrame } from './pages';

/**
 * A live interview's conversation (docs/live-interviews.md), driven by /assets/live-….js: a check of the
 * microphone with a level meter first (a silent one is caught here, not mid-answer), then the conversation
 * with both sides' captions. Answering in writing is a plain form, so it works without the script, without a
 * microphone, and at any time.
 */
export function LivePage({ frame, index, count }: { frame: InterviewFrame; index: number; count: number }): VNode {
  return (
    <Layout title={`Interview: ${frame.jobTitle}`} head={<script src={LIVE_PATH} defer />}>
      <p class="lede">
        {frame.jobTitle} · a conversation with an AI interviewer for {frame.company}
      </p>
      <div class="card live" data-ticket={`${frame.path}/live/ticket`} data-capture={LIVE_CAPTURE_PATH}>
        <h1>
          Question <span data-role="number">{index + 1}</span> of {count}
        </h1>
        <p data-role="status" role="status">
          Checking your browser…
        </p>
        <section data-role="check" aria-label="Microphone check">
          <p>First, check your microphone: press the button and say a few words. The bar below should move.</p>
          <p>
            <label for="level">Microphone level</label>
            <meter id="level" data-role="level" min={0} max={1} value={0} />
          </p>
          <button type="button" data-action="check">
            Check my microphone
          </button>
          <button type="button" data-action="begin" hidden>
            Start the conversation
          </button>
        </section>
        <section data-role="talk" aria-label="Conversation" hidden>
          <ol class="captions" data-role="captions" aria-live="polite" />
          <button type="button" data-action="done">
            I'm done with this question
          </button>
          <button type="button" class="quiet" data-action="repeat">
            Hear the question again
          </button>
        </section>
      </div>
      <form method="post" action={`${frame.path}/live/switch`}>
        <button type="submit" class="quiet">
          Answer in writing instead
        </button>
      </form>
      <OptOutLink frame={frame} />
    </Layout>
  );
}
