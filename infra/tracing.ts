import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Config } from './config';

/**
 * OpenTelemetry tracing, opt-in (docs/tracing.md): with OTEL_EXPORTER_OTLP_ENDPOINT set, a process exports its
 * spans over OTLP/HTTP (protobuf, or JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json). Without it nothing here
 * runs: no provider, no instrumentation, no Temporal interceptors, the workflow bundle without them, and
 * `trace.getActiveSpan()` answers undefined at once.
 */
export interface Tracing {
  resource: Resource;
  spanProcessor: SpanProcessor;
  /** Sends what is buffered, then stops exporting. */
  shutdown(): Promise<void>;
}

let running: Tracing | null = null;

/** The process's tracing when it is on. */
export const tracing = (): Tracing | null => running;

export const tracingWanted = (config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT'>) => Boolean(config.OTEL_EXPORTER_OTLP_ENDPOINT);

/** Starts tracing for this process, once; later calls return the first one. Null when it is not configured. */
export function startTracing(
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_PROTOCOL' | 'OTEL_SERVICE_NAME' | 'ROLE'>,
): Tracing | null {
  if (running || !tracingWanted(config)) return running;
  const url = `${config.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/+$/, '')}/v1/traces`;
  const exporter: SpanExporter =
    config.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json' ? new JsonExporter({ url }) : new ProtobufExporter({ url });
  const resource = new Resource({
    [ATTR_SERVICE_NAME]: config.OTEL_SERVICE_NAME,
    'service.role': config.ROLE,
  });
  const spanProcessor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // W3C trace context (`traceparent`) in and out, and async context across awaits. W3C baggage is neither read
  // nor sent: a caller's baggage would ride on to the ATS, Vapi and OpenAI with every outbound request.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Outbound calls only: the API's own server span is made with its route (api/middleware.ts), and the
      // exporter's own requests are not traced (they would trace themselves).
      // A URL's query can hold a credential (a webhook's `?token=`): outbound spans keep the URL without it.
      new HttpInstrumentation({
        disableIncomingRequestInstrumentation: true,
        ignoreOutgoingRequestHook: (req) => String(req.path ?? '').startsWith('/v1/traces'),
        startOutgoingSpanHook: (req) => {
          const path = String(req.path ?? '/').split('?')[0];
          const url = `${req.protocol ?? 'http:'}//${req.hostname ?? req.host ?? 'localhost'}${req.port ? `:${req.port}` : ''}${path}`;
          return { 'http.url': url, 'http.target': path, 'url.full': url };
        },
      }),
      new UndiciInstrumentation({
        startSpanHook: (req) => {
          const url = new URL(req.path, req.origin);
          return { 'url.full': `${url.origin}${url.pathname}`, 'url.query': undefined as never };
        },
      }),
    ],
  });
  // The instrumentation patches `http` and `https` when they are next required: the process loaded them long
  // ago, so they are required again here, which patches their one shared module object for every user.
  /* eslint-disable @typescript-eslint/no-require-imports */
  require('node:http');
  require('node:https');
  /* eslint-enable @typescript-eslint/no-require-imports */
  running = { resource, spanProcessor, shutdown: () => provider.shutdown() };
  return running;
}
