import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface ProcessTimes {
  parent: number;
  /** The executable's name as /proc/<pid>/stat gives it (at most 15 characters). */
  name: string;
  ms: number;
}

/** Every process's parent, name and CPU time (user and system, in ms), read from /proc. */
function processTable(): Map<number, ProcessTimes> {
  const table = new Map<number, ProcessTimes>();
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The command name may hold spaces and parentheses: the fields that follow start after its last ')'.
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    table.set(Number(entry), {
      parent: Number(fields[1]),
      name: stat.slice(open + 1, close),
      ms: ((Number(fields[11]) + Number(fields[12])) * 1_000) / TICKS_PER_SECOND,
    });
  }
  return table;
}

/**
 * CPU time (user and system, in ms) of every process this one started, and theirs: the whole stack of a
 * benchmark (the database, the Temporal server, the API and the worker), read from /proc.
 */
export function stackCpuMs(root = process.pid): number {
  const { client: _own, ...stack } = stackCpuByPart({}, root);
  return Object.values(stack).reduce((a, b) => a + b, 0);
}

/**
 * The same CPU time split by part of the stack: each process counted under the nearest of `parts` (a name
 * for a process id: the API, the worker, a floor's worker) it is or descends from; the rest by what runs:
 * `database` (FerretDB or mongod), `temporal` (the dev server), `other` for anything else below this process,
 * and `client` for this process itself (the benchmark's requests and its polling), which is not the stack's.
 */
export function stackCpuByPart(parts: Record<string, number>, root = process.pid): Record<string, number> {
  const table = processTable();
  const named = new Map(Object.entries(parts).map(([name, pid]) => [pid, name]));
  const byPart: Record<string, number> = {};
  for (const [pid, p] of table) {
    let part: string | undefined;
    let inStack = pid === root;
    for (let q: number | undefined = pid; q !== undefined && q > 1; q = table.get(q)?.parent) {
      part ??= named.get(q);
      if (q === root) {
        inStack = true;
        break;
      }
    }
    if (!inStack) continue;
    part ??= pid === root ? 'client' : /ferret|mongod/.test(p.name) ? 'database' : /temporal/.test(p.name) ? 'temporal' : 'other';
    byPart[part] = (byPart[part] ?? 0) + p.ms;
  }
  return byPart;
}

/** What each part spent between two readings of `stackCpuByPart`. */
export function cpuSpent(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const spent: Record<string, number> = {};
  for (const part of new Set([...Object.keys(before), ...Object.keys(after)])) spent[part] = (after[part] ?? 0) - (before[part] ?? 0);
  return spent;
}
