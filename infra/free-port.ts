import { createServer } from 'node:net';

/**
 * Ports this process has handed out. The kernel may give a port it just freed to the next caller, so two
 * calls in a row could name the same port for two listeners that have not started yet (the API's and its
 * metrics', say), and the second to start would die of EADDRINUSE.
 */
const handedOut = new Set<number>();

/** A TCP port free on loopback right now (the kernel's pick), for a listener whose port must be known before it starts. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await kernelPick();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function kernelPick(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
