import type { Provider } from '../providers/index.js';

export type { Coverage, PlannedEvent, PlannedOutcome, PlannedPort, PlannedRunner, TaskStatus } from '../engine/index.js';

/** The models of a planned turn, one per role (the fallback also retries a failed plan or synthesis). */
export interface PlannedModels {
  readonly planner: Provider;
  readonly executor: Provider;
  readonly synthesizer: Provider;
  readonly fallback: Provider;
}
