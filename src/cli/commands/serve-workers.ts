import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { CliIo } from '../cli-io.js';
import { CliFailure } from '../cli-errors.js';

/** What a worker tells the primary over IPC. */
export type WorkerMessage = { readonly type: 'plumb-ready'; readonly url: string; readonly banner: string } | { readonly type: 'plumb-failed'; readonly message: string };

/** The primary's longest wait for the workers to finish their shutdown before it kills them. Milliseconds. */
const drainMs = 30_000;

export interface PrimaryOptions {
  readonly workers: number;
  readonly io: CliIo;
  /** Resolves on the first SIGINT or SIGTERM. */
  readonly shutdown: () => Promise<void>;
}

/**
 * `plumb serve --workers N`, the primary: forks N workers with node:cluster (each runs this same
 * command as a single server; the primary holds the listening socket and hands connections out in
 * turn) — the first alone, the others once it is up — prints the banner once they are all up, replaces a worker that dies (the others keep
 * serving; its turns end once its lease lapses), and on SIGINT/SIGTERM tells every worker to shut
 * down gracefully and waits for them all — killing, after 30 s, one that does not finish.
 */
export async function runPrimary(options: PrimaryOptions): Promise<void> {
  const { workers, io } = options;
  let stopping = false;
  const ready = new Map<number, string>();
  let banner = '';
  const started = performance.now();
  const up = new Promise<string>((resolve, reject) => {
    const fork = (index: number): void => {
      const worker = cluster.fork({ PLUMB_WORKER_INDEX: String(index) });
      // A message to a worker that just died fails with EPIPE: its exit is handled below.
      worker.on('error', () => undefined);
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'plumb-failed') {
          if (ready.size < workers) reject(new CliFailure(`worker ${index + 1} could not start: ${message.message}`));
          return;
        }
        const first = ready.size === 0;
        ready.set(index, message.url);
        banner = message.banner;
        // The first worker starts alone: it creates what a first start creates (the app's tables,
        // the journal's), which the others then find; they start together once it is up.
        if (first && index === 0) for (let next = 1; next < workers; next++) fork(next);
        if (ready.size === workers) resolve(message.url);
      });
      worker.once('exit', (code, signal) => {
        if (stopping) return;
        if (ready.size < workers) {
          reject(new CliFailure(`worker ${index + 1} exited (${signal ?? `code ${code}`}) before it was ready`));
          return;
        }
        io.stderr(`plumb: worker ${index + 1} (pid ${worker.process.pid ?? '?'}) exited (${signal ?? `code ${code}`}); starting another. Its running turns end once its lease lapses (leaseSeconds).\n`);
        ready.delete(index);
        fork(index);
      });
    };
    fork(0);
  });
  let url: string;
  try {
    url = await up;
  } catch (error) {
    stopping = true;
    await stopAll(Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined));
    throw error;
  }
  io.stdout(`Plumb is listening on ${url} with ${workers} workers (ready in ${Math.round(performance.now() - started)} ms)\n${banner}`);
  await options.shutdown();
  stopping = true;
  io.stdout(`Shutting down ${workers} workers…\n`);
  await stopAll(Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined));
}

/** Asks each worker to shut down and waits for every one to exit (killing the late ones after `drainMs`). */
async function stopAll(workers: readonly Worker[]): Promise<void> {
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          const timer = setTimeout(() => worker.process.kill('SIGKILL'), drainMs);
          timer.unref();
          worker.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          // A worker shuts down on this message as on a signal of its own.
          if (worker.isConnected()) worker.send({ type: 'plumb-shutdown' });
          else worker.process.kill('SIGTERM');
        }),
    ),
  );
}

/** In a worker: resolves when the primary asks it to shut down. */
export function primaryShutdown(): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown): void => {
      if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'plumb-shutdown') {
        process.off('message', onMessage);
        resolve();
      }
    };
    process.on('message', onMessage);
    // A primary that went away (killed) cannot ask any more: shut down as well.
    process.once('disconnect', () => resolve());
  });
}
