import { Type, type Static } from '@sinclair/typebox';
import '../shared/formats';
import { FAULT_POINTS } from './fault-points';

/**
 * Every setting the service reads, as one TypeBox schema over the environment. README.md's configuration
 * table documents the same names and defaults; `loadConfig` (infra/config.ts) is the only place that reads process.env.
 */
const Port = (def: number) => Type.Integer({ minimum: 1, maximum: 65535, default: def });
const Bool = (def: boolean) => Type.Boolean({ default: def });
const Text = (def: string) => Type.String({ minLength: 1, default: def });
const OptionalText = () => Type.Optional(Type.String({ minLength: 1 }));

export const ConfigSchema = Type.Object({
  PORT: Port(3000),
  HOST: Text('0.0.0.0'),
  ROLE: Type.Union([Type.Literal('all'), Type.Literal('api'), Type.Literal('worker')], { default: 'all' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /**
   * `GET /metrics` (Prometheus) on a listener of its own; 0 turns it off. Unset: 9464, or 9465 for ROLE=worker,
   * so an API and a worker on one machine do not collide.
   */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** Where the metrics listener binds: loopback unless a scraper elsewhere needs it (docs/metrics.md). */
  METRICS_HOST: Text('127.0.0.1'),
  /** Tracing is on when this is set: spans go to `<endpoint>/v1/traces` over OTLP/HTTP (docs/tracing.md). */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** OTLP over HTTP, in protobuf (the OpenTelemetry default) or JSON; gRPC is not offered. */
  OTEL_EXPORTER_OTLP_PROTOCOL: Type.Union([Type.Literal('http/protobuf'), Type.Literal('http/json')], { default: 'http/protobuf' }),
  OTEL_SERVICE_NAME: Text('hiring-integration'),
  BODY_LIMIT: Type.String({ pattern: '^[0-9]+(b|kb|mb)$', default: '1mb' }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  SUPPORT_EMAIL: Text('support@example.com'),
  /** The largest recorded interview answer, in bytes (25 MB). */
  RECORDING_MAX_BYTES: Type.Integer({ minimum: 1_000, maximum: 500_000_000, default: 25_000_000 }),
  /** The bytes of all of one interview's recordings together. */
  RECORDING_QUOTA_BYTES: Type.Integer({ minimum: 1_000, maximum: 10_000_000_000, default: 200_000_000 }),
  /** Recordings one API process takes at once; more are answered 503 with Retry-After. */
  MAX_CONCURRENT_UPLOADS: Type.Integer({ minimum: 1, maximum: 10_000, default: 16 }),
  /** Of those, how many one workspace's candidates may hold at once, so one workspace cannot take them all. */
  MAX_CONCURRENT_UPLOADS_PER_WORKSPACE: Type.Integer({ minimum: 1, maximum: 10_000, default: 4 }),
  /** An upload that sends less than UPLOAD_MIN_BYTES in any UPLOAD_RATE_WINDOW_SECONDS is cut (408). */
  UPLOAD_MIN_BYTES: Type.Integer({ minimum: 1, maximum: 100_000_000, default: 16_384 }),
  UPLOAD_RATE_WINDOW_SECONDS: Type.Integer({ minimum: 1, maximum: 3_600, default: 10 }),

  MONGODB_URI: Type.String({ pattern: '^mongodb(\\+srv)?://' }),
  MONGODB_DB: Text('hiring'),

  TEMPORAL_ADDRESS: Text('localhost:7233'),
  TEMPORAL_NAMESPACE: Text('default'),
  TEMPORAL_TASK_QUEUE: Text('hiring'),
  /**
   * Workflows the worker keeps in memory between their tasks; a sleeping call evicted from it is replayed when
   * it wakes. 200 holds the bench's bursts (50 calls, 200 invitations) at the same CPU per item as 1,000, and
   * 10,000 sleeping calls in 562 MiB instead of 928 (docs/benchmarks.md).
   */
  WORKER_MAX_CACHED_WORKFLOWS: Type.Integer({ minimum: 50, default: 200 }),
  /**
   * A workflow bundle made ahead (scripts/bundle-workflows.ts). Unset: the one `npm run build` writes beside the
   * compiled worker, else the worker bundles the workflows at start-up.
   */
  WORKFLOW_BUNDLE_PATH: OptionalText(),
  TEMPORAL_UI_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  TEMPORAL_API_KEY: OptionalText(),
  TEMPORAL_TLS: Bool(false),
  TEMPORAL_TLS_CERT_PATH: OptionalText(),
  TEMPORAL_TLS_KEY_PATH: OptionalText(),
  TEMPORAL_TLS_CA_PATH: OptionalText(),
  TEMPORAL_TLS_SERVER_NAME: OptionalText(),

  VOICE_PROVIDER: Type.Union([Type.Literal('simulator'), Type.Literal('vapi')], { default: 'simulator' }),
  SIMULATOR_CALL_SECONDS: Type.Number({ minimum: 0, maximum: 3600, default: 2 }),
  VAPI_API_KEY: OptionalText(),
  VAPI_BASE_URL: Type.String({ pattern: '^https?://', default: 'https://api.vapi.ai' }),
  VAPI_PHONE_NUMBER_ID: OptionalText(),
  VAPI_WEBHOOK_SECRET: OptionalText(),
  VAPI_SERVER_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  VAPI_SERVER_CREDENTIAL_ID: OptionalText(),
  /** Vapi ends a call after this long (the assistant's maxDurationSeconds; Vapi's own range is 10 to 43,200). */
  VAPI_MAX_CALL_SECONDS: Type.Integer({ minimum: 10, maximum: 43_200, default: 600 }),
  /** How long after a call's longest end its report may still arrive before Vapi is asked how it ended. */
  VAPI_REPORT_GRACE_SECONDS: Type.Integer({ minimum: 0, maximum: 3_600, default: 120 }),
  // Below the dial activity's 30 s timeout, so a dial the worker gave up on is never still in flight at Vapi.
  VAPI_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 25_000, default: 15_000 }),

  WHATSAPP_PROVIDER: Type.Union([Type.Literal('log'), Type.Literal('cloud')], { default: 'log' }),
  WHATSAPP_ACCESS_TOKEN: OptionalText(),
  WHATSAPP_BASE_URL: Type.String({ pattern: '^https?://', default: 'https://graph.facebook.com' }),
  WHATSAPP_API_VERSION: Type.String({ pattern: '^v[0-9]+\\.[0-9]+$', default: 'v21.0' }),
  WHATSAPP_PHONE_NUMBER_ID: OptionalText(),
  WHATSAPP_BUSINESS_ACCOUNT_ID: OptionalText(),
  WHATSAPP_APP_SECRET: OptionalText(),
  WHATSAPP_VERIFY_TOKEN: OptionalText(),
  WHATSAPP_TEMPLATE_CACHE_SECONDS: Type.Integer({ minimum: 0, maximum: 86_400, default: 300 }),
  WHATSAPP_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 15_000 }),

  EMAIL_PROVIDER: Type.Union([Type.Literal('log'), Type.Literal('sendgrid')], { default: 'log' }),
  EMAIL_FROM: Type.String({ format: 'email', default: 'interviews@example.com' }),
  EMAIL_FROM_NAME: OptionalText(),
  SENDGRID_API_KEY: OptionalText(),
  SENDGRID_BASE_URL: Type.String({ pattern: '^https?://', default: 'https://api.sendgrid.com' }),
  SENDGRID_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 15_000 }),

  OPENAI_API_KEY: OptionalText(),
  OPENAI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  OPENAI_MODEL: Text('gpt-4o-mini'),
  /** Transcribes recorded interview answers for their assessment (OpenAI's transcription API). */
  OPENAI_TRANSCRIBE_MODEL: Text('gpt-4o-mini-transcribe'),
  /**
   * Live interviews' realtime speech provider (docs/live-interviews.md): `simulator` (no key: a tone for a
   * voice, the length of what it heard for a transcript) or `openai` (OpenAI Realtime, with OPENAI_API_KEY).
   */
  REALTIME_PROVIDER: Type.Union([Type.Literal('simulator'), Type.Literal('openai')], { default: 'simulator' }),
  OPENAI_REALTIME_MODEL: Text('gpt-realtime'),
  OPENAI_REALTIME_VOICE: Text('marin'),
  /** How long the realtime socket may take to open before the conversation's socket is told to try later (1013). */
  OPENAI_REALTIME_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  /** Live conversations one API process holds at once; beyond them a socket is refused with 503 and Retry-After. */
  LIVE_CONVERSATIONS_PER_PROCESS: Type.Integer({ minimum: 1, maximum: 10_000, default: 50 }),
  OPENAI_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
  OPENAI_MAX_RETRIES: Type.Integer({ minimum: 0, maximum: 10, default: 2 }),

  /**
   * Lets webhooks reach private, loopback and link-local addresses, and plain http (development and tests;
   * `npm run dev` and the tests set it unless told otherwise). Cloud metadata addresses are refused always.
   */
  WEBHOOK_ALLOW_PRIVATE: Bool(false),

  /**
   * The ATS doors' reports (docs/ats/): the hosts a Greenhouse send_test's report URL may name (comma-separated;
   * a stand-in's `127.0.0.1:port` in tests), and Ashby's API (a stand-in's in tests). Both go through the
   * webhooks' SSRF guard, WEBHOOK_ALLOW_PRIVATE included.
   */
  GREENHOUSE_CALLBACK_HOSTS: Text('app.greenhouse.io,app.eu.greenhouse.io'),
  ASHBY_API_URL: Type.String({ pattern: '^https?://', default: 'https://api.ashbyhq.com' }),
  /** How long an ATS's API may take to answer a report (at most 50 s: a report's attempt lasts a minute at most). */
  PARTNER_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 50_000, default: 10_000 }),

  /**
   * How many reverse proxies stand in front (`true` is 1, `false` is 0). With N, the client's address (for the
   * per-address limits and the logs) is the Nth entry of `X-Forwarded-For` from the right, the one the
   * outermost proxy wrote, never an entry the client wrote; and `X-Forwarded-Proto` and `-Host` are believed.
   * At 0 they are whatever a client says, and ignored.
   */
  TRUST_PROXY: Type.String({ pattern: '^(true|false|[0-9])$', default: 'false' }),
  /**
   * Dashboard and sign-in cookies are `Secure` and `__Host-` prefixed. On by default when PUBLIC_BASE_URL is
   * https; turn it off only to try the dashboard over plain http on another machine.
   */
  COOKIE_SECURE: Type.Optional(Type.Boolean()),

  /** A dashboard session with no request for this long has ended (its absolute limit is 12 hours). */
  SESSION_IDLE_MINUTES: Type.Integer({ minimum: 1, maximum: 720, default: 60 }),

  /**
   * The secret people's hashes are keyed with (the suppression list, the person index, the dial caps, the
   * email claims: stores/person-keys.ts), at least 32 characters; required in production. Or
   * PERSON_HASH_SECRETS, `version:secret` items, newest first, to add a new one while hashes under the older
   * ones keep matching (`admin people:rekey` files them again under the newest).
   */
  PERSON_HASH_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  PERSON_HASH_SECRETS: OptionalText(),

  /** How often the worker removes expired idempotent answers, sessions and limit windows (infra/housekeeping.ts). */
  HOUSEKEEPING_INTERVAL_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 300 }),

  /** Test hook (the chaos suite): hold every request at this point so the process can be killed there. */
  FAULT_HOLD_AT: Type.Optional(Type.Union(FAULT_POINTS.map((p) => Type.Literal(p)))),

  AI_RATE_LIMIT: Type.Integer({ minimum: 1, maximum: 10_000, default: 5 }),
  AI_RATE_LIMIT_WINDOW_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 60 }),

  // Abuse limits (stores/limits.ts), shared by every process through the database. Per workspace:
  /** Candidates accepted by call/initiate and interview/invite together, per hour. */
  CANDIDATES_PER_HOUR: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 20_000 }),
  /** Invitation and resend emails, per UTC day. */
  EMAILS_PER_DAY: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 100_000 }),
  INTERVIEW_RESENDS_PER_HOUR: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1_000 }),
  DELIVERY_RETRIES_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 100_000, default: 60 }),
  /** Reads of the expensive lists: projects (with their tallies) and deliveries filtered by status. */
  LIST_READS_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 100_000, default: 600 }),
  /** How long POST /candidates/erase waits for its erasure's workflow before it answers 202, in progress. */
  ERASURE_ANSWER_WITHIN_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 20_000 }),
  /** Reviews of interviews (POST /interviews/{id}/review and the dashboard's), per workspace and minute. */
  REVIEWS_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 100_000, default: 60 }),
  /** POST /candidates/erase, per minute: each looks up a person across the workspace and starts workflows. */
  ERASURES_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 100_000, default: 60 }),
  // Per client address (TRUST_PROXY says whether X-Forwarded-For names it), for the routes without an API key:
  SIGN_INS_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 100_000, default: 10 }),
  PAGE_REQUESTS_PER_MINUTE_PER_IP: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 300 }),
  /** Requests per interview link (its token), whatever address they come from. */
  PAGE_REQUESTS_PER_MINUTE_PER_LINK: Type.Integer({ minimum: 1, maximum: 100_000, default: 60 }),
});

export type RawConfig = Static<typeof ConfigSchema>;
export type Config = Omit<RawConfig, 'TRUST_PROXY'> & {
  PUBLIC_BASE_URL: string;
  COOKIE_SECURE: boolean;
  METRICS_PORT: number;
  /** The number of proxies in front (0: none). */
  TRUST_PROXY: number;
};
