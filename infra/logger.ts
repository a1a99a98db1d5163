import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Credentials are redacted wherever they could appear in a logged object. */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'hiring-integration', ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
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
