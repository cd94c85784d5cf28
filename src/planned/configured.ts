import { PlumbError } from '../core/index.js';
import { createProvider } from '../providers/index.js';
import type { Provider, ProviderConfig } from '../providers/index.js';
import type { PlannedRunner } from './port.js';
import { buildModels, checkTrustGroups, roleProfiles } from './profiles.js';
import { createPlannedRunner } from './run-planned.js';
import type { PlannedManager } from './manager.js';
import type { PlannedSettings, ProviderProfile } from './settings.js';

/** An app's manager as a planned turn reads it (the data layer's `Manager` is one). */
export type AppManager = Omit<PlannedManager, 'description'> & { readonly description?: string | undefined; readonly chatExposed: boolean };

/** The managers a plan may name: the app's chat-exposed ones, with their descriptions and catalogue. */
export function plannedManagers(managers: readonly AppManager[]): PlannedManager[] {
  return managers.filter((manager) => manager.chatExposed).map((manager) => ({ name: manager.name, description: manager.description, catalog: manager.catalog }));
}

/** The settings of a configuration a planned turn reads. */
export interface PlannedConfig {
  readonly planned: PlannedSettings;
  readonly providerProfiles: Readonly<Record<string, ProviderProfile>>;
  readonly provider: string | null;
  readonly providerConfig: Readonly<Record<string, unknown>>;
}

/**
 * The roles' profiles of an enabled configuration, checked as at start: each role names a profile
 * (`unknown_profile`), all in one trust group (`trust_group_mismatch`), and a plain `provider` is
 * set for the turns planned reads hand back (a change, a follow-up to a confirmation).
 */
export function checkedRoles(config: PlannedConfig): ReturnType<typeof roleProfiles> {
  if (config.provider === null) {
    throw new PlumbError('invalid_config', 'planned.enabled needs provider as well: a planned read the planner finds to be a change, and every resumed turn, runs in the plain tool loop.', { details: { key: 'provider' } });
  }
  const roles = roleProfiles(config.planned, { profiles: config.providerProfiles, provider: config.provider, providerConfig: config.providerConfig });
  checkTrustGroups(roles);
  return roles;
}

/**
 * The engine's planned strategy a configuration describes, or undefined when `planned.enabled`
 * is false: one provider per profile in use (each through `wrap`, as the plain provider is).
 */
export async function configuredPlannedRunner(
  config: PlannedConfig,
  options: {
    readonly managers: readonly AppManager[];
    readonly cwd: string;
    readonly wrap?: (provider: Provider) => Provider;
  },
): Promise<PlannedRunner | undefined> {
  if (!config.planned.enabled) return undefined;
  const roles = checkedRoles(config);
  const models = await buildModels(roles, async (profile) => {
    const built = await createProvider({ ...(profile.providerConfig as Omit<ProviderConfig, 'provider'>), provider: profile.provider, cwd: options.cwd });
    return options.wrap === undefined ? built : options.wrap(built);
  });
  return createPlannedRunner({ models, settings: config.planned, managers: plannedManagers(options.managers), trustGroupChecked: true });
}
