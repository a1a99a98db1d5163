/**
 * Reads by `_id` that concurrent callers share. A burst reads the same few documents over and over: 200
 * invitations of one job read their project and workspace twice each, 50 calls their workspace's webhook
 * endpoints three times each, and every read costs FerretDB and the driver about 1.5 core-ms. Here a caller
 * joins the next read of its document to start, never one already in flight: that read begins after the caller
 * asked, so it sees every write that finished before, exactly as a read of its own would. A burst of any size
 * then costs two reads per document at a time: the one in flight and the next.
 *
 * When the read in flight fails, the callers waiting for the next one get its failure instead: the database
 * failed them after they asked, and a read of their own would only wait out the same outage again (server
 * selection, 3 s), which would double their wait for a 503.
 *
 * Callers share the document they get, so they must not change it (it is typed read-only).
 */

export type SharedRead<T> = (id: string) => Promise<Readonly<T> | null>;

export function coalescedReads<T>(read: (id: string) => Promise<T | null>): SharedRead<T> {
  /** Per id, the read in flight, settled or not, until the next one replaces it or none is waiting. */
  const inFlight = new Map<string, Promise<T | null>>();
  /** Per id, the read that starts when the one in flight succeeds; every caller meanwhile gets it. */
  const next = new Map<string, Promise<T | null>>();

  const start = (id: string): Promise<T | null> => {
    const reading = read(id);
    inFlight.set(id, reading);
    // Left in place while a next read waits: it starts right after and takes the place.
    const settled = () => {
      if (inFlight.get(id) === reading && !next.has(id)) inFlight.delete(id);
    };
    reading.then(settled, settled);
    return reading;
  };

  return (id) => {
    const running = inFlight.get(id);
    if (!running) return start(id);
    let waiting = next.get(id);
    if (!waiting) {
      waiting = running.then(
        () => {
          next.delete(id);
          return start(id);
        },
        (err: unknown) => {
          next.delete(id);
          if (inFlight.get(id) === running) inFlight.delete(id);
          throw err;
        },
      );
      next.set(id, waiting);
    }
    return waiting;
  };
}
