/**
 * A realtime speech provider for live interviews (docs/live-interviews.md): the server opens one session per
 * conversation, streams the candidate's audio into it and asks it to speak; the provider detects the ends of
 * the candidate's speech, transcribes both sides and answers with audio. Audio is 16-bit mono PCM at 24 kHz
 * both ways (shared/interviews/live.ts). Instructions and turn detection are the server's alone.
 */
export interface RealtimeSessionOptions {
  /** The interviewer's standing instructions: the server's words alone. */
  instructions: string;
  /**
   * What was said so far about the open question, in order, when a session replaces another: given to the
   * provider as conversation items (the candidate's as the user's), never written into the instructions, so
   * nothing the candidate said can read as a rule.
   */
  history?: ReadonlyArray<{ who: 'interviewer' | 'candidate'; text: string }>;
}

/** What a session tells the conversation, in the order the provider says it. */
export interface RealtimeEvents {
  /** The candidate started speaking (whether that stops the interviewer is the page's to say: CUT_IN). */
  speechStarted(): void;
  /** The candidate stopped speaking: the end of their turn, as the provider's turn detection judged it. */
  speechStopped(): void;
  /** The transcript so far of the candidate's turn under way, as the provider streams it (where it does). */
  candidateSaying?(soFar: string): void;
  /** The transcript so far of what the interviewer is saying, as the provider streams it. */
  interviewerSaying?(soFar: string): void;
  /** The transcript of the candidate's turn that just ended. */
  candidateSaid(text: string): void;
  /** A chunk of the interviewer's voice. */
  interviewerAudio(pcm: Buffer): void;
  /** The transcript of what the interviewer just said. */
  interviewerSaid(text: string): void;
  /** The interviewer finished its response. */
  responseDone(): void;
  /** The session failed; the conversation may open a new one with the conversation so far. */
  failed(message: string): void;
  /** The provider refused something but the session goes on (logged and counted). */
  providerError(message: string): void;
}

export interface RealtimeSession {
  /** Appends a frame of the candidate's audio. */
  appendAudio(pcm: Buffer): void;
  /** Asks the interviewer to speak, on these instructions for this response only. */
  respond(instructions: string): void;
  /** Stops the interviewer's response under way (the question closed on a timer, say). */
  cancelResponse(): void;
  /**
   * The candidate cut in `playedMs` into the interviewer's latest response: the response stops if it is still
   * under way, and the provider's conversation keeps its audio, and its words, only that far.
   */
  truncate(playedMs: number): void;
  close(): void;
}

export interface RealtimeVoice {
  readonly name: string;
  /** How long one session may last (the provider's limit, with a margin); the conversation replaces it before. */
  readonly maxSessionMs?: number;
  open(options: RealtimeSessionOptions, events: RealtimeEvents): Promise<RealtimeSession>;
}
