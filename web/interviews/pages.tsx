import type { VNode } from 'preact';
import type { Question } from '../../shared/jobs/schema';
import { MAX_TEXT_ANSWER } from '../../shared/interviews/session';
import { CONSENT_LABEL, consentNotice, DECLINE_AI_LABEL } from '../../shared/interviews/consent';
import { Layout } from '../layout';
import { COUNTDOWN_PATH, RECORDER_PATH } from '../assets/routes';

/** What every interview page knows: the job, the company, and where its forms post. */
export interface InterviewFrame {
  jobTitle: string;
  company: string;
  /** Whom the candidate asks for a new link: the workspace's sender, at the company. */
  contact: string;
  /** The interview's own path, /interview/<token>. */
  path: string;
  /** Days the workspace keeps answers after the interview ends (retention_days); null: until deleted. */
  retentionDays: number | null;
  /** The candidate asked for a person, not an AI, to assess their answers. */
  aiDeclined: boolean;
  /** A live interview not switched to writing: the questions are asked in a conversation (docs/live-interviews.md). */
  live: boolean;
}

/** Every page of the link offers it (web/suppressions/): a confirmation page, then the suppression list. */
export function OptOutLink({ frame }: { frame: InterviewFrame }): VNode {
  return (
    <p class="hint">
      <a href={`${frame.path}/opt-out`}>Don't contact me again</a>
    </p>
  );
}

const minutes = (seconds: number) =>
  seconds % 60 === 0 ? `${seconds / 60} min` : seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;

const KIND: Record<Question['type'], string> = { text: 'Written', audio: 'Spoken', video: 'On camera' };

export function WelcomePage({ frame, questions, error }: { frame: InterviewFrame; questions: Question[]; error?: string }): VNode {
  const notice = consentNotice({
    company: frame.company,
    contact: frame.contact,
    retentionDays: frame.retentionDays,
    recorded: questions.some((q) => q.type !== 'text'),
    live: frame.live,
    aiDeclined: frame.aiDeclined,
  });
  return (
    <Layout title={`Interview: ${frame.jobTitle}`}>
      <h1>{frame.jobTitle}</h1>
      <p class="lede">An interview for {frame.company}</p>
      <section class="card" aria-labelledby="how">
        <h2 id="how">How it works</h2>
        <p>
          There {questions.length === 1 ? 'is 1 question' : `are ${questions.length} questions`}, one at a time. Each has its own time
          limit, which starts when the question appears. Your answers are saved as you go: if you close this page, the link brings you back
          to where you were.
        </p>
        {frame.live && (
          <p>
            An AI interviewer asks the questions aloud and listens to your answers, in a conversation. You will check your microphone first,
            and you can answer in writing instead at any time.
          </p>
        )}
        <ol class="questions">
          {questions.map((q) => (
            <li>
              {KIND[q.type]} answer, {minutes(q.time_limit_seconds)}
            </li>
          ))}
        </ol>
      </section>
      <form method="post" action={`${frame.path}/start`}>
        <section class="card" aria-labelledby="consent-title">
          <h2 id="consent-title">Before you start</h2>
          {notice.map((line) => (
            <p>{line}</p>
          ))}
          {error && (
            <p class="error" id="consent-error" role="alert">
              {error}
            </p>
          )}
          <p class="check">
            <input
              type="checkbox"
              id="consent"
              name="consent"
              value="given"
              required
              aria-describedby={error ? 'consent-error' : undefined}
            />
            <label for="consent">{CONSENT_LABEL}</label>
          </p>
        </section>
        <button type="submit">Start the interview</button>
      </form>
      {!frame.aiDeclined && (
        <form method="post" action={`${frame.path}/no-ai-assessment`}>
          <button type="submit" class="quiet">
            {DECLINE_AI_LABEL}
          </button>
        </form>
      )}
      <OptOutLink frame={frame} />
    </Layout>
  );
}

export function QuestionPage(props: {
  frame: InterviewFrame;
  question: Question;
  index: number;
  count: number;
  secondsLeft: number;
  notice?: string;
  error?: string;
  draft?: string;
}): VNode {
  const { frame, question, index, count } = props;
  const recorded = question.type !== 'text';
  const head = (
    <>
      <script src={COUNTDOWN_PATH} defer />
      {recorded && <script src={RECORDER_PATH} defer />}
    </>
  );
  return (
    <Layout title={`Question ${index + 1} of ${count}: ${frame.jobTitle}`} head={head}>
      <p class="lede">
        {frame.jobTitle} · Question {index + 1} of {count}
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="card">
        <h1 id="question">{question.question}</h1>
        <p class="timer">
          Time left: <span data-seconds-left={String(props.secondsLeft)}>{minutes(props.secondsLeft)}</span>
        </p>
        {recorded && <Recorder kind={question.type === 'video' ? 'video' : 'audio'} upload={`${frame.path}/answers/${index}/recording`} />}
        <AnswerForm {...props} recorded={recorded} />
      </div>
    </Layout>
  );
}

/**
 * A recorded answer: record, review, and upload, driven by /assets/recorder-….js. Without the script, or
 * without a microphone or camera, it stays hidden (or says why) and the typed answer below is the way.
 */
function Recorder({ kind, upload }: { kind: 'audio' | 'video'; upload: string }): VNode {
  return (
    <section class="recorder" data-kind={kind} data-upload={upload} aria-labelledby="recorder-title" hidden>
      <h2 id="recorder-title">Record your {kind === 'video' ? 'video' : 'spoken'} answer</h2>
      <p class="hint" data-role="status" role="status" aria-live="polite">
        Press Start recording when you are ready. You can play it back before you submit it.
      </p>
      {kind === 'video' ? <video data-role="preview" controls playsInline hidden /> : <audio data-role="preview" controls hidden />}
      <div class="actions">
        <button type="button" data-action="record">
          Start recording
        </button>
        <button type="button" data-action="stop" hidden>
          Stop
        </button>
        <button type="button" data-action="upload" hidden>
          Submit recording
        </button>
        <button type="button" data-action="again" class="quiet" hidden>
          Record again
        </button>
      </div>
    </section>
  );
}

/** The typed answer: the way for a text question, and the fallback for a recorded one. */
function AnswerForm(props: {
  frame: InterviewFrame;
  question: Question;
  index: number;
  error?: string;
  draft?: string;
  recorded: boolean;
}): VNode {
  const device = props.question.type === 'video' ? 'camera' : 'microphone';
  return (
    <form method="post" action={`${props.frame.path}/answers/${props.index}`} class="typed">
      {props.recorded && <p class="hint">If you cannot record (no {device}, or it is not allowed), type your answer instead.</p>}
      {props.error && (
        <p class="error" id="answer-error" role="alert">
          {props.error}
        </p>
      )}
      <label for="answer">{props.recorded ? 'Or type your answer' : 'Your answer'}</label>
      <textarea
        id="answer"
        name="answer"
        rows={8}
        maxLength={MAX_TEXT_ANSWER}
        required
        aria-describedby={props.error ? 'answer-error' : undefined}
        value={props.draft ?? ''}
      />
      <button type="submit">Submit answer</button>
    </form>
  );
}

/**
 * Between questions, when no question is open: the next one has not been served (its time starts when the
 * candidate opens it, by a POST, never by a page load), or its time ran out while the page was closed.
 */
export function ContinuePage(props: { frame: InterviewFrame; index: number; total: number; timedOut: boolean }): VNode {
  const n = props.index + 1;
  return (
    <Layout title={`Question ${n}: ${props.frame.jobTitle}`}>
      <h1>{props.timedOut ? `The time for question ${n} has run out` : `Question ${n} of ${props.total}`}</h1>
      <p>
        {props.timedOut
          ? 'The page was closed while its time ran, so no answer was saved for it. You can go on with the rest.'
          : 'Its time limit starts when you open it.'}
      </p>
      <form method="post" action={`${props.frame.path}/next`}>
        <button type="submit">{props.timedOut ? 'Go on' : `Open question ${n}`}</button>
      </form>
    </Layout>
  );
}

export function FinishPage({ frame, notice }: { frame: InterviewFrame; notice?: string }): VNode {
  return (
    <Layout title={`Finish: ${frame.jobTitle}`}>
      <h1>You have answered every question</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <p>Finish the interview to send your answers to {frame.company}. After that, they can no longer be changed.</p>
      <form method="post" action={`${frame.path}/finish`}>
        <button type="submit">Finish the interview</button>
      </form>
    </Layout>
  );
}

export function CompletedPage({ frame }: { frame: InterviewFrame }): VNode {
  return (
    <Layout title={`Completed: ${frame.jobTitle}`}>
      <h1>Interview completed</h1>
      <p>
        Thank you. Your answers for {frame.jobTitle} have been sent to {frame.company}, who will be in touch.
      </p>
      <OptOutLink frame={frame} />
    </Layout>
  );
}

export function NotReadyPage({ frame, failed }: { frame: InterviewFrame; failed: boolean }): VNode {
  return (
    <Layout title={`Interview: ${frame.jobTitle}`}>
      <h1>{failed ? 'This interview is not available' : 'Your interview is almost ready'}</h1>
      <p>
        {failed
          ? `Something went wrong while preparing it. Please contact ${frame.company}.`
          : 'Its questions are being prepared. Please reload this page in a minute.'}
      </p>
      <OptOutLink frame={frame} />
    </Layout>
  );
}

export function ExpiredPage({ frame, expiredOn }: { frame: InterviewFrame; expiredOn: string }): VNode {
  return (
    <Layout title={`Expired: ${frame.jobTitle}`}>
      <h1>This interview link has expired</h1>
      <p>
        The interview for {frame.jobTitle} at {frame.company} closed on {expiredOn}.
      </p>
      <p>If you would still like to take it, please contact {frame.contact}, who can send you a new link.</p>
      <OptOutLink frame={frame} />
    </Layout>
  );
}
