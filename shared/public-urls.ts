/** The public URLs the service hands out, all under PUBLIC_BASE_URL; kept stable because ATSs store them. */
export function projectUrl(baseUrl: string, projectId: string): string {
  return `${baseUrl}/projects/${projectId}`;
}

export function jobUrl(baseUrl: string, projectId: string): string {
  return `${baseUrl}/jobs/${projectId}`;
}

export function interviewUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/interview/${token}`;
}

/** A call's candidate link (docs/calls.md): call now, pick a time, not interested, answer in writing. */
export function callLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/call/${token}`;
}

/** An email's one-click unsubscribe link (RFC 8058): its page confirms, its POST suppresses the address. */
export function unsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/u/${token}`;
}

/** Where providers deliver their callbacks (relative to PUBLIC_BASE_URL); configured in each provider's console. */
export const VAPI_EVENTS_PATH = '/api/public/v1/providers/vapi/events';
export const WHATSAPP_EVENTS_PATH = '/api/public/v1/providers/whatsapp/events';

/** Where the workspace's key downloads a recorded answer (with Range, so a player can seek). */
/** A live interview's recording of its whole conversation. */
export function conversationRecordingUrl(baseUrl: string, interviewId: string): string {
  return `${baseUrl}/api/public/v1/interviews/${interviewId}/recording`;
}

export function recordingUrl(baseUrl: string, interviewId: string, index: number): string {
  return `${baseUrl}/api/public/v1/interviews/${interviewId}/answers/${index}/recording`;
}

/** The routes whose segment after the first is a candidate's credential or names their page: masked whole. */
const SECRET_ROUTES = new Set(['u', 'interview', 'jobs', 'call']);

/**
 * A request path as it may be logged or traced. The routes of candidates' links (`/u/{token}`,
 * `/interview/{token}/…`, `/call/{token}/…`, `/jobs/{id}`) have that segment replaced by `…`: routes match whatever the path's
 * case, and their parameters are decoded, so the route is recognised decoded and in any case (`/INTERVIEW/`,
 * `/%75/`), and the segment is taken before decoding, so an encoded slash cannot carry part of it past the
 * mask. Anywhere else, a run of 32 or more token characters (a secret in whatever place) is masked too.
 */
export function loggablePath(path: string): string {
  const segments = path.split('/');
  const first = segments.findIndex((s) => s !== '');
  if (first >= 0 && SECRET_ROUTES.has(decoded(segments[first]).toLowerCase())) {
    const secret = segments.findIndex((s, i) => i > first && s !== '');
    if (secret > 0) segments[secret] = '…';
  }
  return segments.map((s) => (s === '…' ? s : decoded(s).replace(/[A-Za-z0-9_-]{32,}/g, '…'))).join('/');
}

/** A segment percent-decoded; a malformed escape is judged as it came. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
