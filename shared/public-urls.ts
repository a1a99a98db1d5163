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

/** An email's one-click unsubscribe link (RFC 8058): its page confirms, its POST suppresses the address. */
export function unsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/u/${token}`;
}

/** Where providers deliver their callbacks (relative to PUBLIC_BASE_URL); configured in each provider's console. */
export const VAPI_EVENTS_PATH = '/api/public/v1/providers/vapi/events';
export const WHATSAPP_EVENTS_PATH = '/api/public/v1/providers/whatsapp/events';

/** Where the workspace's key downloads a recorded answer (with Range, so a player can seek). */
export function recordingUrl(baseUrl: string, interviewId: string, index: number): string {
  return `${baseUrl}/api/public/v1/interviews/${interviewId}/answers/${index}/recording`;
}

/**
 * A request path as it may be logged: an interview link's secret part (after the interview id) is left out,
 * since the link is the candidate's credential. Routes match whatever the path's case, and their parameters
 * are decoded, so the path is judged decoded and in any case: `/INTERVIEW/…` and `%2E` for the dot are
 * masked too, and so is any run of 32 or more token characters anywhere, a secret in whatever place.
 */
export function loggablePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: judged as it came.
  }
  return decoded.replace(/^(\/+interview\/+[^/.]*)\.[^/]*/i, '$1.…').replace(/[A-Za-z0-9_-]{32,}/g, '…');
}
