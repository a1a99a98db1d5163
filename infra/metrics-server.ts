import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger';
import { collectProcessMetrics, registry } from './metrics';

export interface MetricsServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * `GET /metrics` on its own listener, away from the public API's port: a scrape never passes the API's
 * authentication, limits or proxy, and a firewall can keep it to the monitoring network (METRICS_HOST is
 * 127.0.0.1 unless told otherwise). `engine` is the Temporal SDK's own exporter (infra/temporal-runtime.ts),
 * whose text is served after ours, so one scrape of a worker has both.
 */
export async function startMetricsServer(host: string, port: number, logger: Logger, engine: string | null = null): Promise<MetricsServer> {
  collectProcessMetrics();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(path === '/metrics' ? 405 : 404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at GET /metrics\n');
      return;
    }
    scrape(engine).then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      (err: Error) => {
        logger.warn({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be collected\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Our registry's text, then the engine's; an engine that does not answer leaves its part out, not the scrape. */
async function scrape(engine: string | null): Promise<string> {
  const [ours, theirs] = await Promise.all([
    registry.metrics(),
    engine
      ? fetch(engine, { signal: AbortSignal.timeout(5_000) })
          .then((r) => (r.ok ? r.text() : ''))
          .catch(() => '')
      : '',
  ]);
  return theirs ? `${ours}\n${theirs}` : ours;
}
