import type { ErrorCatalogue } from '../core/index.js';

/**
 * Codes of planned turns: the stable terminal reasons a turn ends with when no grounded answer is
 * left, and the configuration's. Messages never carry profiles, trust groups, plans or exceptions.
 */
export const plannedErrorCodes = {
  invalid_plan: 'The planner gave no plan that passed validation, even after its fallback.',
  manager_unresolved: 'A task names data the assistant cannot see or that does not exist.',
  dependency_blocked: 'A task could not run because a task it depends on did not complete.',
  budget_exhausted: 'The planned turn used the model rounds it may use before it had a grounded answer.',
  // One code, one meaning: a planned turn's deadline is a turn's deadline (the engine's catalogue takes this text).
  deadline_exceeded: 'The turn ran past its deadline (turnDeadlineSeconds; for a planned turn, one of its stage deadlines) and was stopped.',
  provider_failed: 'A model of the planned turn failed and its fallback did too.',
  synthesis_failed: 'No answer that cites only evidence the turn gathered came back, even after the fallback.',
  trust_group_mismatch: 'The roles of planned turns are pinned to profiles of different trust groups.',
  unknown_profile: 'A planned role names a provider profile the configuration does not have.',
} as const satisfies ErrorCatalogue;

export type PlannedErrorCode = keyof typeof plannedErrorCodes;

/** The reasons a planned turn ends without an answer (a subset of the codes). */
export const terminalReasons = ['invalid_plan', 'manager_unresolved', 'dependency_blocked', 'budget_exhausted', 'deadline_exceeded', 'provider_failed', 'synthesis_failed'] as const;
export type TerminalReason = (typeof terminalReasons)[number];

/** What a person reads for each terminal reason: stable, with nothing internal in it. */
export const terminalMessages: Readonly<Record<TerminalReason, string>> = {
  invalid_plan: 'I could not prepare a safe plan for that request.',
  manager_unresolved: 'I could not find the data that request needs among what I can see.',
  dependency_blocked: 'A part of the request that the rest depends on could not be completed.',
  budget_exhausted: 'The request reached its limit of steps before I had an answer.',
  deadline_exceeded: 'The request reached its time limit before I had an answer.',
  provider_failed: 'The language model could not complete the request.',
  synthesis_failed: 'I could not write an answer grounded in the data I gathered.',
};
