import pino, { type Logger } from 'pino';
import { trace } from '@opentelemetry/api';

export type { Logger };

/** Structured JSON logs. Credentials are redacted wherever they could appear in a logged object. */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'hiring-integration', ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceIds,
    redact: {
      paths: [
        'req.headers["x-service-api-key"]',
        'req.headers.authorization',
        'req.headers["x-vapi-secret"]',
        'headers["x-service-api-key"]',
        'headers.authorization',
        '*.api_key',
        '*.apiKey',
        'api_key',
        'apiKey',
      ],
      censor: '[redacted]',
    },
  });
}

/**
 * The active span's ids on every log line written inside it (a request, an activity), so a line leads to its
 * trace. Without tracing there is never an active span, and this adds nothing.
 */
function traceIds(): object {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Every request's own logger and id (api/middleware.ts requestContext), pages' and API's alike. */
declare module 'koa' {
  interface DefaultState {
    logger?: Logger;
    requestId?: string;
  }
}
