import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { connectDatabase, type Database } from '../../infra/database';
import { uniqueName } from '../helpers/stack';

/**
 * A database that comes back after an outage is used again without a restart, even when, while it was coming
 * back, it accepted a connection and never answered on it (as a server still starting up can). The driver's
 * monitor waits on such a connection for its handshake; the client's socket timeout is what ends that wait.
 * The database is the real one, behind a TCP relay that can cut every connection and swallow new ones.
 */
function relay(target: { host: string; port: number }) {
  let mode: 'forward' | 'swallow' = 'forward';
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    if (mode === 'swallow') return; // accepted, never answered, never closed
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
  });
  return {
    async listen(): Promise<number> {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return (server.address() as AddressInfo).port;
    },
    /** The database goes away: every open connection is cut, and new ones hang. */
    fail() {
      mode = 'swallow';
      for (const s of sockets) s.destroy();
    },
    /** The database is back for new connections; the swallowed ones stay as they are. */
    recover() {
      mode = 'forward';
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Pings until the database answers; false when it has not within `ms`. */
async function pingsAgainWithin(db: Database, ms: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms;) {
    if (
      await db.ping().then(
        () => true,
        () => false,
      )
    )
      return true;
  }
  return false;
}

describe('database connection after an outage', () => {
  it('is used again once the database is back, though a connection made meanwhile was never answered', async () => {
    const target = new URL(process.env.TEST_MONGODB_URI!);
    const proxy = relay({ host: target.hostname, port: Number(target.port) });
    const port = await proxy.listen();
    const db = await connectDatabase(`mongodb://127.0.0.1:${port}`, uniqueName('recovery'));
    try {
      await db.ping();
      proxy.fail();
      await expect(db.ping()).rejects.toThrow();
      // Long enough for the monitor to have opened a connection into the void and to be waiting on it.
      await new Promise((r) => setTimeout(r, 4_000));
      proxy.recover();
      expect(await pingsAgainWithin(db, 60_000)).toBe(true);
    } finally {
      await db.close();
      await proxy.close();
    }
  }, 90_000);

  it("is used again when the driver's monitor stalls on a connection the database has just closed", async () => {
    const target = new URL(process.env.TEST_MONGODB_URI!);
    const proxy = relay({ host: target.hostname, port: Number(target.port) });
    const port = await proxy.listen();
    const SLACK_MS = 1_000;
    const db = await connectDatabase(`mongodb://127.0.0.1:${port}`, uniqueName('stall'), { monitorStallSlackMs: SLACK_MS });
    try {
      await db.ping();
      // A check asked for within 500 ms of the last one waits for its turn; this one must run at once.
      await new Promise((r) => setTimeout(r, 1_000));
      // The driver's state after the database closed the monitor's connection: its socket destroyed, the
      // connection's 'close' not yet seen, and a check asked for in between (infra/database-monitor.ts).
      const monitor = [...(db.client as any).topology.s.servers.values()][0].monitor;
      monitor.connection.socket.destroy();
      monitor.requestCheck();
      // Then an operation fails on the network, so the server is Unknown until a check of the stalled monitor.
      proxy.fail();
      await expect(db.ping()).rejects.toThrow();
      proxy.recover();
      // The stalled check's bound (6 s: two connect timeouts) and the slack, then a reconnect.
      expect(await pingsAgainWithin(db, 6_000 + SLACK_MS + 5_000)).toBe(true);
      // Collections taken before the reconnect are used as they were.
      await db.calls.insertOne({ _id: 'after-stall' } as never);
      expect(await db.calls.findOne({ _id: 'after-stall' })).not.toBeNull();
    } finally {
      await db.db.dropDatabase().catch(() => undefined);
      await db.close();
      await proxy.close();
    }
  }, 60_000);
});
