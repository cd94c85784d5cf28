/**
 * CPU time of processes from /proc/<pid>/stat (Linux), for the serve benches: nothing is measured
 * from inside the processes measured.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: /proc's CPU times are in 1/100 s. */
export const ticksPerSecond = 100;

export interface ProcStat {
  readonly ppid: number;
  readonly comm: string;
  /** utime + stime, in ticks. */
  readonly cpu: number;
  /** cutime + cstime: the children it has waited for, in ticks. */
  readonly childrenCpu: number;
  readonly rss: number;
}

export function stat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    // Fields after the command, from field 3 (state) on: ppid is field 4, utime 14 … cstime 17, rss 24.
    const fields = text.slice(close + 2).split(' ');
    return { ppid: Number(fields[1]), comm, cpu: Number(fields[11]) + Number(fields[12]), childrenCpu: Number(fields[13]) + Number(fields[14]), rss: Number(fields[21]) * 4096 };
  } catch {
    return undefined;
  }
}

export function allPids(): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
}

/** The process and its descendants. */
export function tree(rootPid: number): number[] {
  const stats = allPids().map((pid) => ({ pid, stat: stat(pid) }));
  const out = [rootPid];
  for (let i = 0; i < out.length; i++) for (const entry of stats) if (entry.stat?.ppid === out[i]) out.push(entry.pid);
  return out;
}

/** CPU of the processes, in ticks (a process gone counts 0). */
export function cpuOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (stat(pid)?.cpu ?? 0), 0);
}

export function byName(name: string): number[] {
  return allPids().filter((pid) => stat(pid)?.comm === name);
}
