/**
 * What the interview page tells a candidate before the first question, and what the candidate agrees to by
 * ticking its box (the Illinois AI Video Interview Act; GDPR's transparency). The version is stored with the
 * consent, so a changed text is told apart from the one a candidate agreed to.
 */
export const CONSENT_TEXT_VERSION = '2026-11-26';

export function consentNotice(f: {
  company: string;
  contact: string;
  retentionDays: number | null;
  recorded: boolean;
  /** A live interview: a conversation with an AI interviewer, recorded whole (docs/live-interviews.md). */
  live?: boolean;
  /** The candidate asked for a person, not an AI, to assess their answers. */
  aiDeclined: boolean;
}): string[] {
  const kept = f.retentionDays
    ? `${f.company} keeps your answers and recordings for ${f.retentionDays} days after the interview ends, then deletes them.`
    : `${f.company} keeps your answers and recordings until it deletes them or you ask it to.`;
  return [
    f.live
      ? 'What is recorded: your conversation with the AI interviewer, both voices, and its transcript, from the moment the conversation starts until it ends. Nothing is judged from your voice, tone or face: only what you say is assessed.'
      : f.recorded
        ? 'What is recorded: your written answers, and the audio or video of your spoken and on-camera answers, from the moment each question appears until you submit it.'
        : 'What is recorded: your written answers.',
    f.aiDeclined
      ? `You asked for a person, not an AI, to assess your answers: no AI system transcribes or assesses them, and people at ${f.company} read them and make every decision.`
      : `An AI system assesses your answers against the job's requirements; people at ${f.company} read its assessment and your answers and make every decision. You may ask for a person to assess them instead, below.`,
    kept,
    `To have them deleted, or to ask what is kept, write to ${f.contact}. You can also ask not to be contacted again, below.`,
  ];
}

export const CONSENT_LABEL = 'I have read this, and I agree to my answers being recorded and assessed as described.';
export const DECLINE_AI_LABEL = 'I would like a person, not an AI, to assess my answers';
