import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { PlumbError } from '../core/index.js';
import type { QueryResult } from './database.js';

/**
 * The reader process's program (plain JavaScript, so that it runs from the source and the build
 * alike): its own read-only connection to the file; one statement at a time; its rows or its error
 * message back over the IPC channel. It ends with its parent.
 */
const program = `
const Database = require(process.env.PLUMB_SQLITE_DRIVER);
const db = new Database(process.env.PLUMB_SQLITE_PATH, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
process.on('disconnect', () => process.exit(0));
process.on('message', ({ sql, parameters }) => {
  try {
    process.send({ rows: db.prepare(sql).all(...parameters) });
  } catch (error) {
    process.send({ error: String(error && error.message || error) });
  }
});
process.send({ ready: true });
`;

interface Answer {
  readonly ready?: true;
  readonly rows?: Record<string, unknown>[];
  readonly error?: string;
}

/**
 * Reads with a limit that really stops the statement. better-sqlite3 (12.x) exposes neither
 * `sqlite3_interrupt` nor a progress handler, and a worker thread cannot be stopped while SQLite
 * runs inside it (`terminate()` waits for the statement to end), so a timed read runs in a child
 * process holding its own read-only connection, which is killed when the limit passes. Statements
 * go one at a time: a read waiting behind another does not spend its own limit.
 */
export class SqliteReader {
  readonly #path: string;
  #child: Promise<ChildProcess> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(path: string) {
    this.#path = path;
  }

  read(sql: string, parameters: readonly unknown[], timeoutMs: number): Promise<QueryResult> {
    const turn = this.#queue.then(() => this.#run(sql, parameters, timeoutMs));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  async #run(sql: string, parameters: readonly unknown[], timeoutMs: number): Promise<QueryResult> {
    if (this.#closed) throw new PlumbError('closed', `The SQLite database '${this.#path}' is closed.`);
    const child = await (this.#child ??= this.#spawn());
    return new Promise<QueryResult>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onMessage = (answer: Answer): void => {
        settle();
        if (answer.rows !== undefined) resolve({ rows: answer.rows, changes: 0 });
        else reject(new Error(answer.error ?? 'the SQLite reader answered nothing'));
      };
      const onExit = (): void => {
        settle();
        this.#child = undefined;
        reject(this.#closed ? new PlumbError('closed', `The SQLite database '${this.#path}' is closed.`) : new Error('the SQLite reader process ended during a statement'));
      };
      const timer = setTimeout(() => {
        settle();
        this.#child = undefined;
        child.kill('SIGKILL');
        reject(new PlumbError('timeout', `SQLite stopped the statement after ${timeoutMs} ms (its statement timeout).`));
      }, timeoutMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ sql, parameters });
    });
  }

  #spawn(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['-e', program], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: { ...process.env, PLUMB_SQLITE_DRIVER: createRequire(import.meta.url).resolve('better-sqlite3'), PLUMB_SQLITE_PATH: this.#path },
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    return new Promise<ChildProcess>((resolve, reject) => {
      child.once('message', () => {
        child.off('exit', onExit);
        // Idle, the reader keeps nothing alive (a read under way has its timer): a host that never closes the database can still exit.
        child.unref();
        child.channel?.unref();
        (child.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
        resolve(child);
      });
      const onExit = (): void => {
        this.#child = undefined;
        reject(new PlumbError('sqlite_unavailable', `The SQLite reader process for '${this.#path}' did not start: ${stderr.trim() || 'it ended at once'}.`));
      };
      child.once('exit', onExit);
    });
  }

  /** Ends the reader process (a statement under way fails with `closed`). */
  close(): void {
    this.#closed = true;
    const child = this.#child;
    this.#child = undefined;
    void child?.then((running) => running.kill('SIGKILL'), () => undefined);
  }
}
