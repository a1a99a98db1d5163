import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user and system, in ms) of every process this one started, and theirs: the whole stack of a
 * benchmark (the database, the Temporal server, the API and the worker), read from /proc.
 */
export function stackCpuMs(root = process.pid): number {
  const parents = new Map<number, number>();
  const times = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The command name may hold spaces and parentheses: the fields that follow start after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parents.set(Number(entry), Number(fields[1]));
    times.set(Number(entry), Number(fields[11]) + Number(fields[12]));
  }
  const below = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, t] of times) if (below(pid)) ticks += t;
  return (ticks * 1_000) / TICKS_PER_SECOND;
}
