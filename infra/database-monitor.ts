import type { MongoClient } from 'mongodb';
import type { Logger } from './logger';

/**
 * The driver's server monitor: what it sees, logged, and a monitor that stalls, restarted.
 */

/**
 * How long a heartbeat may go unanswered before the monitor is taken to have stalled. The driver's own bounds
 * are far shorter: connectTimeoutMS (3 s) for a connection and again for its handshake, plus
 * heartbeatFrequencyMS (10 s) for an awaited check on a server that streams them.
 */
export const MONITOR_STALLED_AFTER_MS = 30_000;

/**
 * The driver (mongodb 7.9) can leave a server's monitor waiting forever. It checks the server on its own
 * connection when that connection is not `closed`; but a socket the server has closed is destroyed a loop turn
 * before its 'close' event marks the connection closed. A check asked for in that window (server selection
 * asks for one right after an operation failed on the network) writes its `hello` to the destroyed socket and
 * waits for a 'drain' that never comes, with no timeout armed on a destroyed socket. The monitor never checks
 * again, the server stays Unknown, and every operation fails server selection until the process restarts: seen
 * once in 10 chaos runs of a database restart (scenario c), and reproduced in
 * test/infra/database-recovery.test.ts. A heartbeat that started and never ended is that state; closing the
 * client and connecting it again starts new monitors, and the collections taken from it stay valid. Returns
 * the function that stops watching, for an intended close.
 */
export function restartStalledMonitors(
  client: MongoClient,
  log: Logger | undefined,
  stalledAfterMs = MONITOR_STALLED_AFTER_MS,
): () => void {
  const started = new Map<string, number>(); // server address → when its unanswered heartbeat started
  client.on('serverHeartbeatStarted', (e) => started.set(e.connectionId, Date.now()));
  client.on('serverHeartbeatSucceeded', (e) => started.delete(e.connectionId));
  client.on('serverHeartbeatFailed', (e) => started.delete(e.connectionId));
  let restarting = false;
  const timer = setInterval(
    () => {
      const stalled = [...started].find(([, at]) => Date.now() - at > stalledAfterMs);
      if (!stalled || restarting) return;
      restarting = true;
      started.clear();
      log?.warn({ address: stalled[0], ms: Date.now() - stalled[1] }, 'database monitor stalled; reconnecting');
      // Operations under way meanwhile fail as an outage (503); a connect that fails is retried by the next operation.
      client
        .close()
        .then(() => client.connect())
        .catch((err: unknown) => log?.warn({ err }, 'database reconnect failed; the next operation tries again'))
        .finally(() => (restarting = false));
    },
    Math.min(1_000, stalledAfterMs),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The driver's view of the server, at debug level (LOG_LEVEL=debug): heartbeats and what the monitor
 * concluded from them, and the life of the connection pool. How a process finds its way back after the
 * database restarts is read from these (docs/reliability.md). Per-operation events (check-outs, commands)
 * are left out: they would cost on every request.
 */
export function logDriverEvents(client: MongoClient, log: Logger): void {
  client.on('serverHeartbeatSucceeded', (e) =>
    log.debug({ event: 'heartbeat', connection: e.connectionId, ms: e.duration, awaited: e.awaited }, 'heartbeat ok'),
  );
  client.on('serverHeartbeatFailed', (e) =>
    log.debug(
      { event: 'heartbeat', connection: e.connectionId, ms: e.duration, awaited: e.awaited, failure: e.failure.message },
      'heartbeat failed',
    ),
  );
  client.on('serverDescriptionChanged', (e) =>
    log.debug(
      {
        event: 'server',
        address: e.address,
        from: e.previousDescription.type,
        to: e.newDescription.type,
        error: e.newDescription.error?.message,
      },
      'server description changed',
    ),
  );
  client.on('connectionPoolCleared', (e) =>
    log.debug({ event: 'pool', address: e.address, interruptInUse: e.interruptInUseConnections ?? false }, 'pool cleared'),
  );
  client.on('connectionPoolReady', (e) => log.debug({ event: 'pool', address: e.address }, 'pool ready'));
  client.on('connectionCreated', (e) => log.debug({ event: 'pool', address: e.address, connection: e.connectionId }, 'connection created'));
  client.on('connectionClosed', (e) =>
    log.debug({ event: 'pool', address: e.address, connection: e.connectionId, reason: e.reason }, 'connection closed'),
  );
  client.on('connectionCheckOutFailed', (e) => log.debug({ event: 'pool', address: e.address, reason: e.reason }, 'check-out failed'));
}
