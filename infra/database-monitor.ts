import type { MongoClient } from 'mongodb';
import type { Logger } from './logger';

/**
 * The driver's server monitor: what it sees, logged, and a monitor that stalls, restarted.
 */

/** How long past the driver's own bound a heartbeat may take before its monitor is taken to have stalled. */
export const MONITOR_STALL_SLACK_MS = 5_000;

/**
 * The longest a heartbeat takes by the driver's own timeouts: a connection and its handshake, connectTimeoutMS
 * each (the check on an open connection takes one); an awaited check, on a server that streams heartbeats,
 * waits heartbeatFrequencyMS more. With this service's settings: 6 s, and 13 s awaited.
 */
function heartbeatBoundMs(client: MongoClient, awaited: boolean): number {
  const { connectTimeoutMS, heartbeatFrequencyMS } = client.options;
  return awaited ? connectTimeoutMS + heartbeatFrequencyMS : 2 * connectTimeoutMS;
}

/**
 * The driver (mongodb 7.9) can leave a server's monitor waiting forever. It checks the server on its own
 * connection when that connection is not `closed`; but a socket the server has closed is destroyed a loop turn
 * before its 'close' event marks the connection closed. A check asked for in that window (server selection
 * asks for one right after an operation failed on the network) writes its `hello` to the destroyed socket and
 * waits for a 'drain' that never comes, with no timeout armed on a destroyed socket. The monitor never checks
 * again, the server stays Unknown, and every operation fails server selection until the process restarts: seen
 * in 3 of 60 chaos runs of a database restart (scenario c), and reproduced in
 * test/infra/database-recovery.test.ts. A heartbeat that has not ended `slackMs` past its bound is that state;
 * closing the client and connecting it again starts new monitors, and the collections taken from it stay
 * valid. Returns the function that stops watching, for an intended close.
 */
export function restartStalledMonitors(client: MongoClient, log: Logger | undefined, slackMs = MONITOR_STALL_SLACK_MS): () => void {
  const due = new Map<string, number>(); // server address → when its unanswered heartbeat should have ended
  client.on('serverHeartbeatStarted', (e) => due.set(e.connectionId, Date.now() + heartbeatBoundMs(client, e.awaited) + slackMs));
  client.on('serverHeartbeatSucceeded', (e) => due.delete(e.connectionId));
  client.on('serverHeartbeatFailed', (e) => due.delete(e.connectionId));
  let restarting = false;
  const timer = setInterval(
    () => {
      const stalled = [...due].find(([, at]) => Date.now() > at);
      if (!stalled || restarting) return;
      restarting = true;
      due.clear();
      log?.warn({ address: stalled[0], overdueMs: Date.now() - stalled[1] + slackMs }, 'database monitor stalled; reconnecting');
      // Operations under way meanwhile fail as an outage (503); a connect that fails is retried by the next operation.
      client
        .close()
        .then(() => client.connect())
        .catch((err: unknown) => log?.warn({ err }, 'database reconnect failed; the next operation tries again'))
        .finally(() => (restarting = false));
    },
    Math.min(1_000, slackMs),
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
