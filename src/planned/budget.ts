/** The round ledger of one planned turn: every model request of every role is charged here. */
export class RoundBudget {
  #used = 0;
  constructor(readonly limit: number) {}

  get used(): number {
    return this.#used;
  }

  /** Charges one round; false when the turn has none left. */
  take(): boolean {
    if (this.#used >= this.limit) return false;
    this.#used++;
    return true;
  }
}

/** Why a stage stopped early, so the turn can end with the reason that is true. */
export class StageStop extends Error {
  constructor(readonly reason: 'budget_exhausted' | 'deadline_exceeded' | 'provider_failed', message: string) {
    super(message);
    this.name = 'StageStop';
  }
}

/** A signal that aborts with the turn's and after `seconds`, whichever is first. */
export function stageSignal(turn: AbortSignal, seconds: number): AbortSignal {
  return AbortSignal.any([turn, AbortSignal.timeout(Math.max(1, Math.round(seconds * 1000)))]);
}
