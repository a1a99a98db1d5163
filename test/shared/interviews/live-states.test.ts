import { ConversationState, LIVE_EVENTS, LIVE_STATES, LIVE_TRANSITIONS, liveMove } from '../../../shared/interviews/live-states';

describe("a live conversation's states", () => {
  it('ends from every state, and never leaves ended', () => {
    for (const state of LIVE_STATES) expect(liveMove(state, 'end')).toBe('ended');
    for (const event of LIVE_EVENTS) expect(liveMove('ended', event)).toBe('ended');
  });

  it('names only states and events it has', () => {
    for (const [from, moves] of Object.entries(LIVE_TRANSITIONS)) {
      expect(LIVE_STATES).toContain(from);
      for (const [event, to] of Object.entries(moves)) {
        expect(LIVE_EVENTS).toContain(event);
        expect(LIVE_STATES).toContain(to);
      }
    }
  });

  it('tells the page each change and each new reply with its number, and keeps a late event from moving it back', () => {
    const told: Array<[string, number | undefined]> = [];
    const floor = new ConversationState((state, reply) => told.push([state, reply]));
    floor.move('greet');
    expect(floor.replying).toBe(true);
    floor.move('reply_done');
    floor.move('speech_started');
    floor.move('speech_stopped');
    // The reply that was cut into ends after the candidate stopped: they are still answered, not listened to again.
    floor.move('reply_done');
    floor.move('candidate_said');
    floor.move('ask');
    floor.move('ask');
    floor.move('close');
    expect(floor.move('end')).toBe(true);
    expect(floor.move('ask')).toBe(false);
    expect(floor.ended).toBe(true);
    expect(told).toEqual([
      ['asking', 1],
      ['listening', undefined],
      ['thinking', undefined],
      ['asking', 2],
      ['asking', 3],
    ]);
  });
});
