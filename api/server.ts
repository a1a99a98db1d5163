import type { Server } from 'node:http';
import type Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import type { ApiDeps } from './deps';
import { createApp } from './app';

export interface RunningApi {
  url: string;
  server: Server;
  /** Stops accepting connections, lets in-flight requests finish (up to `graceMs`), then closes the rest. */
  stop(graceMs: number): Promise<void>;
}

/**
 * How long a connection may sit idle between requests. Past the 60 s after which common reverse proxies and
 * load balancers drop an idle upstream connection (nginx's `keepalive_timeout`, AWS ALB's idle timeout), so
 * they let go of it first: with Node's 5 s, a proxy could send a request on a connection the API was closing
 * at that moment, and answer its client 502 (the race the tests' own client met: docs/test-speed.md).
 */
const KEEP_ALIVE_MS = 65_000;

export async function startApi(deps: ApiDeps, port = deps.config.PORT, host = deps.config.HOST, pages: Router[] = []): Promise<RunningApi> {
  const app = createApp(deps, pages);
  const server = app.listen(port, host);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // A request's headers are due within this; it stays above the idle time, as Node asks.
  server.headersTimeout = Math.max(server.headersTimeout, KEEP_ALIVE_MS + 1_000);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    stop: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
