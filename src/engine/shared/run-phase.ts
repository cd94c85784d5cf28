import type { ItemRecord, TurnStatus } from '../../store/index.js';
import { answerOf, confirmationRequestOf, confirmationResolutionOf, questionOf, retryReason, toolCallOf, toolResultOf } from './journal.js';
import { runIdOf, startsRun } from './run-marks.js';

/** What a turn's run is doing (docs/protocol.md, "Run phase"). */
export const runPhases = ['queued', 'reading', 'calling_model', 'running_tool', 'awaiting_approval', 'awaiting_answer', 'retrying', 'stopping', 'compacting', 'done'] as const;
export type RunPhase = (typeof runPhases)[number];

/** Turns whose run numbers a reader keeps besides the latest (items written late to an earlier turn). */
const keptTurns = 8;

/**
 * A thread's runs and its latest turn's phase as the journal tells them, read item by item in
 * journal order: what a live view shows wherever the turn runs. The journal does not hold the
 * engine's in-memory stages: waiting for a slot shows as `queued` only while the turn is
 * `accepted`, and `compacting` is the engine's event alone.
 */
export class RunReader {
  /** Each known turn's current run number (the latest turn's and up to `keptTurns`). */
  readonly #runs = new Map<string, number>();
  #turnId: string | undefined;
  #status: TurnStatus | undefined;
  readonly #calls = new Set<string>();
  readonly #confirmations = new Set<string>();
  readonly #questions = new Set<string>();
  #stopping = false;
  #retrying = false;
  #started = false;

  /**
   * Starts from a turn read from the journal: its status and its items so far (superseded ones
   * too). The latest turn's reading becomes the phase's.
   */
  seed(turnId: string, status: TurnStatus | undefined, turnItems: readonly ItemRecord[]): void {
    this.#begin(turnId);
    this.#status = status;
    for (const item of turnItems) this.#read(item);
  }

  /** Learns an earlier turn's run from its items before `item` (see `item`), without touching the latest turn's phase. */
  learn(turnId: string, priorItems: readonly ItemRecord[]): void {
    this.#remember(turnId, 1 + priorItems.filter(startsRun).length);
  }

  /**
   * The item's run id, reading it; undefined when the item is of a turn this reader has not seen
   * begin (a view that started mid-turn): `learn` that turn's earlier items, then ask again.
   */
  item(item: ItemRecord): string | undefined {
    if (!this.#runs.has(item.turnId)) {
      if (item.kind !== 'user_text') return undefined;
      this.#begin(item.turnId);
    }
    if (item.turnId === this.#turnId) this.#read(item);
    else if (startsRun(item)) this.#remember(item.turnId, this.#runs.get(item.turnId)! + 1);
    return runIdOf(item.turnId, this.#runs.get(item.turnId)!);
  }

  /** A turn's status changed; a turn not seen before is the thread's new latest one. */
  status(turnId: string, status: TurnStatus): void {
    // Turns begin one after another: one not known is newer than every known one.
    if (!this.#runs.has(turnId)) this.#begin(turnId);
    if (turnId === this.#turnId) this.#status = status;
  }

  /** The latest turn's current run id; null before any turn. */
  get runId(): string | null {
    return this.#turnId === undefined ? null : runIdOf(this.#turnId, this.#runs.get(this.#turnId) ?? 1);
  }

  get turnId(): string | undefined {
    return this.#turnId;
  }

  /** The latest turn's phase; null before any turn. */
  get phase(): RunPhase | null {
    const status = this.#status;
    if (this.#turnId === undefined) return null;
    if (status === 'completed' || status === 'failed' || status === 'cancelled') return 'done';
    if (status === 'accepted') return 'queued';
    if (this.#stopping) return 'stopping';
    if (status === 'waiting') return this.#confirmations.size > 0 || this.#questions.size === 0 ? 'awaiting_approval' : 'awaiting_answer';
    if (this.#questions.size > 0) return 'awaiting_answer';
    if (this.#retrying) return 'retrying';
    if (this.#calls.size > 0) return 'running_tool';
    return this.#started ? 'calling_model' : 'reading';
  }

  #begin(turnId: string): void {
    this.#turnId = turnId;
    this.#status = undefined;
    this.#remember(turnId, this.#runs.get(turnId) ?? 1);
    this.#freshRun();
  }

  #remember(turnId: string, run: number): void {
    this.#runs.set(turnId, run);
    for (const known of this.#runs.keys()) {
      if (this.#runs.size <= keptTurns) break;
      if (known !== this.#turnId) this.#runs.delete(known);
    }
  }

  #freshRun(): void {
    this.#calls.clear();
    this.#confirmations.clear();
    this.#questions.clear();
    this.#stopping = false;
    this.#retrying = false;
    this.#started = false;
  }

  #read(item: ItemRecord): void {
    switch (item.kind) {
      case 'retry_marker': {
        if (startsRun(item)) {
          this.#remember(item.turnId, (this.#runs.get(item.turnId) ?? 1) + 1);
          this.#freshRun();
        } else if (retryReason(item) === 'stop') this.#stopping = true;
        else if (retryReason(item) === 'provider') this.#retrying = true;
        return;
      }
      case 'text_draft':
      case 'assistant_text':
        this.#started = true;
        this.#retrying = false;
        return;
      case 'tool_call':
        this.#started = true;
        this.#retrying = false;
        this.#calls.add(toolCallOf(item).callId);
        return;
      case 'tool_result':
        this.#calls.delete(toolResultOf(item).callId);
        return;
      case 'confirmation_request':
        this.#confirmations.add(confirmationRequestOf(item).confirmationId);
        return;
      case 'confirmation_resolution':
        this.#confirmations.delete(confirmationResolutionOf(item).confirmationId);
        return;
      case 'question': {
        const question = questionOf(item);
        // A router question ends the turn: the thread's next message answers it.
        if (question.source !== 'router') this.#questions.add(question.questionId);
        return;
      }
      case 'answer':
        this.#questions.delete(answerOf(item).questionId);
        return;
      default:
        return;
    }
  }
}
