import type { ErrorCatalogue } from '../core/index.js';

/** The evals folder's error codes: what a dataset author or a runner caller can fix. */
export const evalsErrorCodes = {
  eval_dataset_unreadable: 'The dataset file cannot be read, or it is not YAML or JSON.',
  eval_dataset_invalid: 'The dataset does not match the documented shape (the message names the path of each problem).',
  eval_dataset_unknown: 'No packaged dataset has that name (the message lists them); give a file path for your own.',
  eval_unknown_actor: "A case names an actor the fixture does not have (the message lists the fixture's actors).",
} as const satisfies ErrorCatalogue;

export type EvalsErrorCode = keyof typeof evalsErrorCodes;
