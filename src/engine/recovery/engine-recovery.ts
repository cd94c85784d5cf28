import { nanoid } from 'nanoid';
import type { Store, TurnRecord } from '../../store/index.js';
import type { ChatEvent, EventChannel, HookBus } from '../shared/index.js';
import { runIdOf, runNumberAt } from '../shared/index.js';
import { EngineLease } from './lease.js';
import { replayEvents } from './replay.js';
import { recoverInterruptedTurns } from './restart.js';

/** A run this engine holds, as recovery sees it. */
export interface HeldRun {
  readonly turnId: string;
  cancel(mode: 'immediate'): void;
}

export interface EngineRecoveryOptions {
  readonly store: Store;
  readonly hooks: HookBus;
  readonly clock: () => number;
  readonly leaseSeconds: number;
  readonly recoverOnStart: boolean;
  /** The runs this engine holds now. */
  readonly held: () => Iterable<HeldRun>;
  /** A thread whose turn recovery ended, or whose queue waited through a restart: its next message may run. */
  readonly promote: (threadId: string) => void;
}

/**
 * The engine's side of restart (docs/store.md, "Leases"): its lease, the recovery of turns whose
 * engine's lease lapsed (at start and on each heartbeat), and the adoption of its own runs when
 * its lease was lost and renewed.
 */
export class EngineRecovery {
  readonly #options: EngineRecoveryOptions;
  readonly lease: EngineLease;

  constructor(options: EngineRecoveryOptions) {
    this.#options = options;
    this.lease = new EngineLease({
      store: options.store,
      ttlMs: options.leaseSeconds * 1000,
      ids: () => nanoid(),
      onHeartbeat: async () => {
        if (options.recoverOnStart) this.#promoteAfter(await recoverInterruptedTurns(options.store, options.clock));
      },
      onLost: (_lost, id) => this.#adoptRuns(id),
      onError: (error) => options.hooks.emit('error', { error, code: 'chat_error', source: 'recovery' }),
    });
  }

  /**
   * Starts: the lease, then (`recoverOnStart`) the turns other engines left, then `resume` (the
   * waiting turns' expiries), then the queues that waited through a restart. The heartbeat starts
   * from `startHeartbeat` once nothing closed the engine meanwhile.
   */
  async start(resume: () => Promise<void>): Promise<void> {
    const { store, hooks } = this.#options;
    await this.lease.acquire();
    if (this.#options.recoverOnStart) {
      try {
        await recoverInterruptedTurns(store);
      } catch (error) {
        hooks.emit('error', { error, code: 'chat_error', source: 'recovery' });
      }
    }
    await resume();
    // What was queued while the last engine ran and nobody ran since (a crash, a restart).
    for (const threadId of await store.queuedThreads()) this.#options.promote(threadId);
  }

  /** Ends now the turns whose engine's lease lapsed; returns how many. */
  async recover(): Promise<number> {
    const ended = await recoverInterruptedTurns(this.#options.store, this.#options.clock);
    this.#promoteAfter(ended);
    return ended.length;
  }

  /** Recovery ended these turns: their threads' queues may run. */
  #promoteAfter(ended: readonly TurnRecord[]): void {
    for (const turn of ended) this.#options.promote(turn.threadId);
  }

  /**
   * The lease lapsed before its renewal (the process stalled past it): the running turns move to
   * the new lease, each by a compare-and-set that fails for a turn another engine's recovery ended
   * meanwhile; such a run is stopped.
   */
  async #adoptRuns(lease: string): Promise<void> {
    this.#options.hooks.emit('error', { error: new Error('The engine lease lapsed before it was renewed.'), code: 'lease_lost', source: 'recovery' });
    for (const run of [...this.#options.held()]) {
      const adopted = await this.#options.store.updateTurn(run.turnId, { lease }, ['accepted', 'running']);
      if (adopted === undefined) run.cancel('immediate');
    }
  }
}

/**
 * A resent request key: the turn's events as its journal tells them. A turn this process is still
 * running is waited for (`settled`), so that the replay ends with its `done` or `error`; one another
 * process is running ends the replay with `turn_in_progress` instead of leaving the caller without an end.
 */
export async function replayTurn(store: Store, turn: TurnRecord, channel: EventChannel<ChatEvent>, settled: (turn: TurnRecord) => Promise<void> | undefined): Promise<void> {
  let current = turn;
  if (current.status === 'accepted' || current.status === 'running') {
    const running = settled(current);
    if (running !== undefined) {
      await running;
      current = (await store.getTurn(current.id)) ?? current;
    }
  }
  const items = await store.listItems(current.threadId, { turnId: current.id });
  const events = replayEvents(current, items);
  if (current.status === 'accepted' || current.status === 'running') {
    events.push({ thread_id: current.threadId, turn_id: current.id, run_id: runIdOf(current.id, runNumberAt(items, Infinity)), type: 'error', code: 'turn_in_progress', message: 'This message is still being answered elsewhere; its answer will be in the thread. Read the thread, or resend the key later.' });
  }
  for (const event of events) {
    const waiting = channel.push(event);
    if (waiting !== undefined) await waiting;
  }
}
