import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Whether process `pid` holds the socket listening on TCP `port`, read from Linux's /proc; null where there
 * is no /proc to read (then an open port is all a caller can go by).
 *
 * An open port does not say whose it is. The port a server is given is free when it is picked, and another
 * process can take it before the server binds it: the Temporal CLI picks its own membership and HTTP ports
 * at start, so four chaos stacks starting side by side once had one dev server take another's frontend port
 * for an internal service. The server whose port it was died of "address already in use", and its worker,
 * finding the port open, talked to the other server's internal service ("unknown service WorkflowService").
 */
export function holdsListeningPort(pid: number, port: number): boolean | null {
  let sockets: Set<string>;
  try {
    sockets = listeningSockets(port);
  } catch {
    return null;
  }
  if (sockets.size === 0) return false;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    // The process has ended (or is not ours to read): it holds nothing.
    return false;
  }
  return fds.some((fd) => {
    try {
      return sockets.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      return false;
    }
  });
}

/** The sockets (as /proc/<pid>/fd links name them: `socket:[inode]`) listening on `port`, IPv4 and IPv6. */
function listeningSockets(port: number): Set<string> {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const found = new Set<string>();
  // IPv4's table is always there on Linux (its absence says there is no /proc: the caller's null); IPv6's is
  // not where IPv6 is turned off.
  const tables = [readFileSync('/proc/net/tcp', 'utf8'), readIfThere('/proc/net/tcp6')];
  for (const table of tables) {
    // Columns: sl, local address (hex address:hex port), remote address, state (0A: listening), queues,
    // timer, retransmits, uid, timeout, inode.
    for (const line of table.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(hexPort) && f[3] === '0A') found.add(`socket:[${f[9]}]`);
    }
  }
  return found;
}

function readIfThere(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
