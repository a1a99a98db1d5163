import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkerPlugin } from '@temporalio/worker';
import type { Config } from '../infra/config';
import type * as InfraTracing from '../infra/tracing';

/**
 * What tracing adds to the Temporal parts (docs/tracing.md): the client's interceptor puts the caller's span
 * context into each workflow start, signal and query; the worker's plugin (@temporalio/interceptors-opentelemetry)
 * continues it in the workflow, inside the sandbox, whose spans leave through a sink, and in each activity.
 * Nothing when tracing is off. Required lazily, so a process without tracing never loads the SDK's exporters.
 */
export interface TemporalTracing {
  clientInterceptors?: { workflow: WorkflowClientInterceptor[] };
  workerPlugins?: WorkerPlugin[];
  /** Exports the spans still buffered, when the process stops. */
  shutdown?: () => Promise<void>;
}

export function temporalTracing(config: Config): TemporalTracing {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return {};
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { startTracing } = require('../infra/tracing') as typeof InfraTracing;
  const otel = require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const tracing = startTracing(config)!;
  return {
    clientInterceptors: { workflow: [new otel.OpenTelemetryWorkflowClientInterceptor()] },
    workerPlugins: [new otel.OpenTelemetryPlugin({ resource: tracing.resource, spanProcessor: tracing.spanProcessor })],
    shutdown: tracing.shutdown,
  };
}
