import { spawn } from 'node:child_process';

export interface ReadyChild<T> {
  /** Resolves once the child printed `ready`. */
  readonly ready: Promise<void>;
  /** Tells it to go (a line on its stdin). */
  go(): void;
  /** Its last line of output, parsed, once it exited with 0. */
  readonly done: Promise<T>;
}

/** A TypeScript fixture in a process of its own that says `ready`, waits for `go`, and ends with one JSON line. */
export function readyChild<T>(fixture: string, args: readonly string[]): ReadyChild<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let signalReady = (): void => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('ready\n')) signalReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as T) : reject(new Error(`${fixture} exited ${code}: ${err}`))));
  });
  // A child that exits before it is ready fails `ready` too.
  return { ready: Promise.race([ready, done.then(() => undefined)]), go: () => child.stdin.end('go\n'), done };
}
