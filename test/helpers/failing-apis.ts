import type { Client } from '@temporalio/client';
import type { MongoClient } from 'mongodb';
import type { RunningApi } from '../../api/server';
import type { Database } from '../../infra/database';
import { createLogger } from '../../infra/logger';
import { readChecked } from './api-contract';
import type { Stack } from './stack';

/**
 * Two more APIs beside a stack, on its database, for the bulk requests' invariants (test/api/bulk-invariants*):
 * `broken`, whose Temporal namespace does not exist, so every workflow start fails after the request's database
 * writes, as when Temporal refuses a start; and `indexGone`, whose database goes away while it files a request's
 * candidates in the person index (as a stopping database cancels the commands it still runs): its person index
 * cannot be reached.
 */
export async function failingApis(stack: Stack) {
  const config = { ...stack.config, TEMPORAL_NAMESPACE: 'no-such-namespace' };
  // Built from the stack's own modules (helpers/stack.ts), as the database handle it shares is theirs.
  const { server, service, temporal: connect } = stack.modules;
  const temporal: Client = await connect.connectClient(config);
  const broken: RunningApi = await server.startApi(
    service.buildApiDeps(config, { db: stack.db, temporal, logger: createLogger('silent') }),
    0,
    '127.0.0.1',
  );
  // The driver of the stack's modules (loaded outside this file's registry), whose errors the service knows.
  const Driver = stack.db.client.constructor as typeof MongoClient;
  const mongo = new Driver('mongodb://127.0.0.1:1', { serverSelectionTimeoutMS: 300 });
  const db = { ...stack.db, personIndex: mongo.db('gone').collection('person_index') } as Database;
  const indexGone: RunningApi = await server.startApi(
    service.buildApiDeps(stack.config, { db, temporal: stack.temporal, logger: createLogger('silent') }),
    0,
    '127.0.0.1',
  );
  return {
    broken,
    indexGone,
    async stop() {
      await indexGone.stop(1_000);
      await mongo.close();
      await broken.stop(1_000);
      await temporal.connection.close();
    },
  };
}

/** A POST with the API key, checked against the API's contract as every test's request is. */
export async function postTo(url: string, path: string, key: string, body: unknown) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': key },
    body: JSON.stringify(body),
  });
  return readChecked('POST', path, res);
}
