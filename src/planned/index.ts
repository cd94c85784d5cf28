/**
 * Planned read orchestration: for read questions the router cannot read, a planner's validated
 * plan, read-only executors gathering evidence, calculations in decimal arithmetic, and a
 * synthesizer that answers citing only that evidence; provider profiles pin each role.
 */
export { createPlannedRunner, runPlannedTurn } from './run-planned.js';
export type { PlannedStrategy } from './run-planned.js';
export type { PlannedManager } from './manager.js';
export type { Coverage, PlannedEvent, PlannedModels, PlannedOutcome, PlannedPort, PlannedRunner, TaskStatus } from './port.js';
export { plannedSettingsSchema, providerProfileSchema, providerProfilesSchema, plannedRoles, defaultProfileName } from './settings.js';
export type { PlannedRole, PlannedSettings, ProviderProfile } from './settings.js';
export { validatePlan, validateDeclaredChildren, planSchema, calculationOperations } from './plan.js';
export type { EvidenceRequirement, PlanBounds, PlannedTask, ValidatedPlan, PlanValidation, CalculationOperation, Operand } from './plan.js';
export { planProblemCodes } from './plan-problems.js';
export type { PlanProblem, PlanProblemCode } from './plan-problems.js';
export { routingFeatures, executorRole, featuresOf } from './routing.js';
export type { ExecutorRole, RoutingFeature } from './routing.js';
export { matchSources } from './manager.js';
export type { MatchSource } from './manager.js';
export { EvidenceStore, evidenceOf } from './evidence.js';
export type { EvidenceKind, EvidenceRecord } from './evidence.js';
export { calculate, CalculationError } from './calculations.js';
export { checkSynthesis } from './synthesizer.js';
export { roleProfiles, checkTrustGroups, buildModels } from './profiles.js';
export type { ProfileSources } from './profiles.js';
export { plannedErrorCodes, terminalReasons, terminalMessages } from './errors.js';
export type { PlannedErrorCode, TerminalReason } from './errors.js';
export { checkedRoles, configuredPlannedRunner, plannedManagers } from './configured.js';
export type { AppManager, PlannedConfig } from './configured.js';
