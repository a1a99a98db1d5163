import { resultOfEndedReason, SHORT_HANGUP_SECONDS } from '../../../providers/voice/vapi-ended-reasons';

describe("Vapi's endedReason mapped onto how an attempt ended", () => {
  it.each([
    ['assistant-ended-call', 'completed'],
    ['assistant-said-end-call-phrase', 'completed'],
    ['assistant-ended-call-after-message-spoken', 'completed'],
    ['exceeded-max-duration', 'completed'],
    ['customer-did-not-answer', 'missed'],
    ['call.forwarding.no-answer', 'missed'],
    ['call.in-progress.error-providerfault-outbound-sip-408-request-timeout', 'missed'],
    ['call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable', 'missed'],
    ['customer-busy', 'declined'],
    ['vonage-rejected', 'declined'],
    ['call.in-progress.error-providerfault-outbound-sip-486-busy-here', 'declined'],
    ['call.in-progress.error-providerfault-outbound-sip-603-decline', 'declined'],
    ['voicemail', 'sent_to_voicemail'],
    ['silence-timed-out', 'silenced'],
    ['call.in-progress.error-assistant-did-not-receive-customer-audio', 'silenced'],
    ['phone-call-provider-closed-websocket', 'abruptly_disconnected'],
    ['call.in-progress.error-sip-outbound-call-failed-to-connect', 'abruptly_disconnected'],
    ['call.in-progress.error-vapifault-openai-llm-failed', 'abruptly_disconnected'],
    ['pipeline-error-openai-llm-failed', 'abruptly_disconnected'],
    ['worker-shutdown', 'abruptly_disconnected'],
    ['twilio-reported-customer-misdialed', 'invalid_number'],
    ['call.in-progress.error-providerfault-outbound-sip-404-not-found', 'invalid_number'],
    ['call.in-progress.error-providerfault-outbound-sip-484-address-incomplete', 'invalid_number'],
    ['call.start.error-vapi-number-international', 'invalid_number'],
    ['assistant-not-valid', 'provider_error'],
    ['call.start.error-get-assistant', 'provider_error'],
    ['manually-canceled', 'provider_error'],
  ])('%s → %s', (reason, result) => {
    expect(resultOfEndedReason(reason, 120)).toBe(result);
  });

  it('counts a customer hang-up as a conversation only after the short-hang-up threshold', () => {
    expect(resultOfEndedReason('customer-ended-call', SHORT_HANGUP_SECONDS - 0.5)).toBe('abruptly_disconnected');
    expect(resultOfEndedReason('customer-ended-call', 3)).toBe('abruptly_disconnected');
    expect(resultOfEndedReason('customer-ended-call', SHORT_HANGUP_SECONDS)).toBe('completed');
    expect(resultOfEndedReason('customer-ended-call', null)).toBe('completed');
    expect(resultOfEndedReason('customer-ended-call-during-transfer', 2)).toBe('abruptly_disconnected');
  });

  it("treats a missing reason as the provider's failure", () => {
    expect(resultOfEndedReason(undefined, 60)).toBe('provider_error');
  });
});
