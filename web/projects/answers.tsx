import type { VNode } from 'preact';
import type { InterviewDoc } from '../../infra/documents/interviews';
import type { QuestionAssessment } from '../../shared/interviews/assessment';

/**
 * An interview's answers on the project's page: each question with its written answer, its recording's player,
 * or a live interview's conversation about it (both sides' turns), and what the assessment made of it; a live
 * interview's recording of the whole conversation above them.
 */
export function InterviewAnswers({
  interview,
  scored,
}: {
  interview: InterviewDoc;
  scored: Map<number, QuestionAssessment>;
}): VNode | null {
  const answers = interview.answers ?? [];
  if (answers.length === 0 && !interview.conversation_recording) return null;
  const base = `/projects/${interview.project_id}/interviews/${interview._id}`;
  return (
    <details>
      <summary>Answers ({answers.length})</summary>
      {interview.conversation_recording && (
        <p>
          The conversation ({Math.round(interview.conversation_recording.seconds)} s):{' '}
          <Player type="audio/wav" src={`${base}/recording`} label={`The conversation with ${interview.candidate.name}`} />
        </p>
      )}
      <ol class="answers">
        {answers.map((a) => (
          <li>
            <p class="question">{interview.questions?.[a.index]?.question}</p>
            {a.timed_out ? (
              <p>No answer: it arrived after the time limit.</p>
            ) : a.recording ? (
              <Player
                type={a.recording.type}
                src={`${base}/answers/${a.index}/recording`}
                label={`Answer ${a.index + 1} of ${interview.candidate.name}`}
              />
            ) : (a.turns ?? []).length > 0 ? (
              <ol class="captions">
                {(a.turns ?? []).map((t) => (
                  <li>
                    <strong>{t.who === 'interviewer' ? 'Interviewer: ' : 'Candidate: '}</strong>
                    {t.text}
                  </li>
                ))}
              </ol>
            ) : (
              <p>{a.text}</p>
            )}
            {!a.timed_out && <AnswerScore score={scored.get(a.index)} />}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** What the assessment made of one answer: its score and evidence, or why it was not assessed; its transcript. */
function AnswerScore({ score }: { score: QuestionAssessment | undefined }): VNode | null {
  if (!score) return null;
  return (
    <div class="score">
      {score.status === 'assessed' ? (
        <p>
          <strong>{score.score} of 5</strong>
          {score.skills.length > 0 && <> · {score.skills.join(', ')}</>}
        </p>
      ) : (
        <p>Not assessed: {score.reason}</p>
      )}
      {(score.flags ?? []).includes('possible_injection') && (
        <p class="flag">This answer reads like instructions to the assessor: check its score yourself.</p>
      )}
      {score.evidence.length > 0 && (
        <ul class="evidence">
          {score.evidence.map((e) => (
            <li>
              <q>{e}</q>
            </li>
          ))}
        </ul>
      )}
      {score.transcript && <p class="heard">Transcript: {score.transcript}</p>}
    </div>
  );
}

/** A recorded answer's player; it asks for byte ranges, so seeking works. */
function Player({ type, src, label }: { type: string; src: string; label: string }): VNode {
  return type.startsWith('video/') ? (
    <video controls preload="metadata" src={src} aria-label={label} />
  ) : (
    <audio controls preload="metadata" src={src} aria-label={label} />
  );
}
