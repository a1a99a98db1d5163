import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { holdsListeningPort } from '../../scripts/port-owner';
import { startListening } from '../../scripts/services';
import { scratchDir } from '../helpers/scratch';

/** A server of this process on a port of the kernel's pick. */
function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

/** A server process: node listening on the port it is given, as the Temporal CLI or FerretDB would. */
const nodeServer = async (port: number) => ['-e', `require('net').createServer().listen(${port}, '127.0.0.1')`];

/**
 * A server started on a port is ready only once the port is its own: a port another process took first is
 * open too (scripts/port-owner.ts), and a start that took it for ready talked to the other process.
 */
describe('the port a started server listens on is its own', () => {
  it('tells the process holding a listening socket from another process', async () => {
    const { server, port } = await listen();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      expect(holdsListeningPort(process.pid, port)).toBe(true);
      expect(holdsListeningPort(other.pid!, port)).toBe(false);
    } finally {
      other.kill();
      await new Promise((r) => server.close(r));
    }
    expect(holdsListeningPort(process.pid, port)).toBe(false);
  });

  it('does not take a port another process holds for the started server, and starts one on a port of its own', async () => {
    const logFile = join(scratchDir('port-owner'), 'server.log');
    const { server, port } = await listen();
    try {
      // The port is open (this process holds it), and the server started on it dies of EADDRINUSE.
      const outcome = await startListening('node server', process.execPath, nodeServer, logFile, port).then(
        async (taken) => {
          await taken.service.stop();
          return `taken for ready on port ${taken.port}`;
        },
        (err: Error) => err.message,
      );
      expect(outcome).toMatch(/^node server exited with code 1/);
    } finally {
      await new Promise((r) => server.close(r));
    }
    const started = await startListening('node server', process.execPath, nodeServer, logFile, undefined);
    try {
      expect(started.port).not.toBe(port);
    } finally {
      await started.service.stop();
    }
  });
});
