import { ServiceError } from '@temporalio/client';
import { MongoBulkWriteError, MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { bracketPath, dottedPath, isRetryableStatus, ServiceUnavailableError, upstreamFailure } from '../../shared/errors';
import { callFamily, handleErrors, jobFamily, plainFamily, type ErrorFamily } from '../../api/errors';

describe('error paths', () => {
  it.each([
    [['candidates', 0, 'name'], 'candidates.0.name', 'candidates[0].name'],
    [
      ['call_settings', 'working_hours', 'monday', 0, 'start_minute'],
      'call_settings.working_hours.monday.0.start_minute',
      'call_settings.working_hours.monday[0].start_minute',
    ],
    [['max_experience'], 'max_experience', 'max_experience'],
    [[], '', ''],
  ])('%j renders as %s and %s', (path, dotted, bracket) => {
    expect(dottedPath(path)).toBe(dotted);
    expect(bracketPath(path)).toBe(bracket);
  });
});

describe('provider failures: one classifier for every HTTP adapter', () => {
  it.each([0, 408, 409, 425, 429, 500, 502, 503, 504])('status %i may pass on a later attempt', (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });
  it.each([400, 401, 403, 404, 405, 410, 413, 415, 422])('status %i refuses the request for good', (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
  it('renders a retryable failure as 503 and a final one as 502 in both operation families, without the provider detail', async () => {
    for (const family of [callFamily, jobFamily('help@hiring.test')]) {
      for (const [status, expected] of [
        [503, 503],
        [401, 502],
      ] as const) {
        const ctx = { status: 200, body: undefined as unknown, state: {}, set: () => undefined };
        await handleErrors(family)(ctx as never, async () => {
          throw upstreamFailure('whatsapp', status, 'Invalid OAuth access token', 190);
        });
        expect(ctx.status).toBe(expected);
        expect(JSON.stringify(ctx.body)).not.toMatch(/190|whatsapp/);
      }
    }
  });
});

describe('handleErrors: outages are 503 with Retry-After, anything else unknown is a bare 500', () => {
  const run = async (family: ErrorFamily, err: unknown) => {
    const headers: Record<string, string> = {};
    const ctx = { status: 200, body: undefined as unknown, state: {}, set: (k: string, v: string) => (headers[k] = v) };
    await handleErrors(family)(ctx as never, async () => {
      throw err;
    });
    return { status: ctx.status, body: ctx.body, retryAfter: headers['Retry-After'] };
  };
  const selection = new MongoServerSelectionError('connect ECONNREFUSED 127.0.0.1:27017', { type: 'Unknown', servers: new Map() } as never);
  const grpcDown = Object.assign(new Error('14 UNAVAILABLE: No connection established'), {
    code: 14,
    details: 'No connection established',
    metadata: {},
  });
  const deadline = new ServiceError('Failed to start Workflow', {
    cause: Object.assign(new Error('4 DEADLINE_EXCEEDED'), { code: 4, details: 'Deadline exceeded', metadata: {} }),
  });

  it.each([
    ['a database that cannot be selected', selection],
    ['a dropped database connection', new MongoNetworkError('connection reset')],
    [
      'a bulk write cut off by a closed connection (the driver keeps only the message)',
      new MongoBulkWriteError(new MongoNetworkError('connection 8 to 127.0.0.1:27017 closed'), {} as never),
    ],
    [
      'a bulk write cut off by a socket the database had just closed (EPIPE, the message only)',
      new MongoBulkWriteError(Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' }), {} as never),
    ],
    ['a database shutting down', new MongoServerError({ message: 'interrupted at shutdown', code: 11600 })],
    [
      "FerretDB shutting down: a command it cancelled (here as the others, its words in a chaos run's log)",
      new MongoServerError({
        message:
          '[msg_findandmodify.go:137 handler.(*Handler).findAndModifyDocument] [collection.go:94 sqlite.(*collection).Query] context canceled',
        code: 1,
        codeName: 'InternalError',
      }),
    ],
    [
      'FerretDB shutting down: a bulk insert it cancelled',
      new MongoBulkWriteError(
        {
          message: '[msg_insert.go:168 handler.(*Handler).MsgInsert] [db.go:134 fsql.(*DB).InTransaction] context canceled',
          code: 1,
        } as never,
        {} as never,
      ),
    ],
    [
      'FerretDB shutting down: an update whose transaction the cancel rolled back',
      new MongoServerError({
        message:
          '[msg_findandmodify.go:196 handler.(*Handler).findAndModifyDocument] [update.go:114 common.UpdateDocument] [collection.go:191 sqlite.(*collection).UpdateAll] [db.go:167 fsql.(*DB).InTransaction] sql: transaction has already been committed or rolled back',
        code: 1,
      }),
    ],
    [
      'a raw socket error from inside the database driver',
      Object.assign(new Error('This socket has been ended by the other party'), {
        code: 'EPIPE',
        stack:
          'Error: This socket has been ended by the other party\n    at Connection.writeCommand (/app/node_modules/mongodb/lib/cmap/connection.js:1:1)',
      }),
    ],
    ['Temporal unreachable', grpcDown],
    ['a Temporal call past its deadline, wrapped by the client', deadline],
    ['our own give-up', new ServiceUnavailableError('temporal')],
  ])('%s', async (_, err) => {
    expect(await run(callFamily, err)).toEqual({
      status: 503,
      body: {
        success: false,
        code: 'SERVICE_UNAVAILABLE',
        message: 'The service is temporarily unavailable; please retry in a few seconds.',
      },
      retryAfter: '5',
    });
    expect(await run(jobFamily('help@example.com'), err)).toMatchObject({ status: 503, body: { success: false }, retryAfter: '5' });
    expect(await run(plainFamily, err)).toMatchObject({ status: 503, retryAfter: '5' });
  });

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a socket error from elsewhere', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['a gRPC error that is not an outage', Object.assign(new Error('3 INVALID_ARGUMENT'), { code: 3, details: 'bad', metadata: {} })],
    ['a database error that is not an outage', new MongoServerError({ message: 'E11000 duplicate key', code: 11000 })],
    ['an internal error of the database that is not a shutdown', new MongoServerError({ message: 'invalid sjson', code: 1 })],
    [
      'a bulk write refused per document',
      new MongoBulkWriteError({ message: 'E11000', code: 11000, writeErrors: [{ index: 0, code: 11000 }] } as never, {} as never),
    ],
  ])('%s is a 500 that names nothing', async (_, err) => {
    expect(await run(callFamily, err)).toEqual({
      status: 500,
      body: { success: false, code: 'UNKNOWN_ERROR', message: 'An unexpected error occurred' },
      retryAfter: undefined,
    });
  });
});
