/**
 * A provider's words without the phone numbers and email addresses they may quote back ("customer.number
 * +14155550123 is invalid"). They go into logs, which a log pipeline keeps and an erasure cannot reach, and
 * into workflow histories, which an erasure does not rewrite (docs/erasure.md).
 */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g, '<email>').replace(/\+?\d[\d\s().-]{6,}\d/g, '<number>');
}

/** `withoutAddresses` of a refusal's text when there is one. */
export const maskedRefusal = (text: string | undefined | null): string | undefined => (text ? withoutAddresses(text) : undefined);
