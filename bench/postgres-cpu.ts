/**
 * The CPU a run costs PostgreSQL, on a server other sessions may share: the backends of this run's
 * connections (named by their `application_name`) and the cluster's background processes
 * (walwriter, checkpointer, …: they serve every session, this run's commits most while it runs),
 * and, beside them, the whole cluster (every process under the postmaster plus the children it has
 * reaped), which counts other sessions too. Read from /proc, so PostgreSQL must run on this machine.
 */
import pg from 'pg';
import { cpuOf, stat, ticksPerSecond, tree } from './proc-cpu.js';

export interface PostgresSample {
  /** CPU ticks of each of this run's backends. */
  readonly backends: ReadonlyMap<number, number>;
  /** CPU ticks and kind (`walwriter`, …) of each background process. */
  readonly background: ReadonlyMap<number, { readonly kind: string; readonly cpu: number }>;
  /** CPU ticks of the whole cluster. */
  readonly cluster: number;
}

/** CPU used between two samples, in ms. */
export interface PostgresDelta {
  readonly backends: number;
  readonly background: number;
  /** The background process that used the most: a single process, so it can never use more than one core. */
  readonly busiestBackground: { readonly kind: string; readonly cpu: number };
  readonly cluster: number;
}

export class PostgresCpu {
  readonly #admin: pg.Client;
  readonly #applicationName: string;
  private constructor(admin: pg.Client, applicationName: string) {
    this.#admin = admin;
    this.#applicationName = applicationName;
  }

  static async connect(url: string, applicationName: string): Promise<PostgresCpu> {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    return new PostgresCpu(admin, applicationName);
  }

  async sample(): Promise<PostgresSample> {
    const { rows } = await this.#admin.query<{ pid: number; backend_type: string; application_name: string }>('select pid, backend_type, application_name from pg_stat_activity where pid <> pg_backend_pid()');
    const backends = new Map<number, number>();
    const background = new Map<number, { kind: string; cpu: number }>();
    let postmaster: number | undefined;
    for (const row of rows) {
      const own = stat(row.pid);
      if (own === undefined) continue;
      if (row.backend_type === 'client backend') {
        if (row.application_name === this.#applicationName) backends.set(row.pid, own.cpu);
      } else {
        background.set(row.pid, { kind: row.backend_type, cpu: own.cpu });
        postmaster ??= own.ppid;
      }
    }
    const cluster = postmaster === undefined ? 0 : cpuOf(tree(postmaster)) + (stat(postmaster)?.childrenCpu ?? 0);
    return { backends, background, cluster };
  }

  /**
   * Samples now and then every `everyMs` until `stop`, keeping each process's latest figure: a
   * backend that closes during the run (a pool's idle connection) keeps what it used up to its
   * last sample instead of vanishing from the sum.
   */
  async track(everyMs = 250): Promise<{ stop: () => Promise<PostgresDelta> }> {
    const before = await this.sample();
    const backends = new Map(before.backends);
    const background = new Map(before.background);
    let polling = true;
    const poll = async (): Promise<PostgresSample> => {
      const now = await this.sample();
      for (const [pid, cpu] of now.backends) backends.set(pid, cpu);
      for (const [pid, entry] of now.background) background.set(pid, entry);
      return now;
    };
    const loop = (async () => {
      while (polling) {
        await new Promise((resolve) => setTimeout(resolve, everyMs));
        if (polling) await poll();
      }
    })();
    return {
      stop: async () => {
        polling = false;
        await loop;
        const last = await poll();
        return postgresDelta(before, { backends, background, cluster: last.cluster });
      },
    };
  }

  close(): Promise<void> {
    return this.#admin.end();
  }
}

/** What the processes used between two samples; a process that appeared in between counts from 0. */
function postgresDelta(before: PostgresSample, after: PostgresSample): PostgresDelta {
  let backends = 0;
  for (const [pid, cpu] of after.backends) backends += cpu - (before.backends.get(pid) ?? 0);
  let background = 0;
  let busiestBackground = { kind: '', cpu: 0 };
  for (const [pid, { kind, cpu }] of after.background) {
    const used = cpu - (before.background.get(pid)?.cpu ?? 0);
    background += used;
    if (used > busiestBackground.cpu) busiestBackground = { kind, cpu: used };
  }
  const ms = (ticks: number): number => (ticks / ticksPerSecond) * 1000;
  return { backends: ms(backends), background: ms(background), busiestBackground: { kind: busiestBackground.kind, cpu: ms(busiestBackground.cpu) }, cluster: ms(after.cluster - before.cluster) };
}
