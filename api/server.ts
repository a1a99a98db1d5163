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

export async function startApi(deps: ApiDeps, port = deps.config.PORT, host = deps.config.HOST, pages: Router[] = []): Promise<RunningApi> {
  const app = createApp(deps, pages);
  const server = app.listen(port, host);
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
