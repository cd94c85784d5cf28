import { PlumbError } from '../core/index.js';
import type { Provider } from '../providers/index.js';
import type { PlannedModels } from './port.js';
import { defaultProfileName, plannedRoles } from './settings.js';
import type { PlannedRole, PlannedSettings, ProviderProfile } from './settings.js';

/** What a configuration gives for the roles: its named profiles and its own provider (the `default` profile). */
export interface ProfileSources {
  readonly profiles: Readonly<Record<string, ProviderProfile>>;
  /** The configuration's `provider` and `providerConfig`, the implicit `default` profile; null when none is set. */
  readonly provider: string | null;
  readonly providerConfig: Readonly<Record<string, unknown>>;
}

/** The profile each role is pinned to, with its name. */
export function roleProfiles(settings: PlannedSettings, sources: ProfileSources): Record<PlannedRole, { readonly name: string; readonly profile: ProviderProfile }> {
  const resolved = {} as Record<PlannedRole, { name: string; profile: ProviderProfile }>;
  const missing: string[] = [];
  for (const role of plannedRoles) {
    const name = settings.roles[role];
    const named = Object.hasOwn(sources.profiles, name) ? sources.profiles[name] : undefined;
    const profile = named ?? (name === defaultProfileName && sources.provider !== null ? { provider: sources.provider, providerConfig: { ...sources.providerConfig }, trustGroup: 'default' } : undefined);
    if (profile === undefined) missing.push(`${role} → '${name}'`);
    else resolved[role] = { name, profile };
  }
  if (missing.length > 0) {
    const known = [...Object.keys(sources.profiles), ...(sources.provider === null ? [] : [defaultProfileName])];
    throw new PlumbError('unknown_profile', `planned.roles: ${missing.join(', ')} name${missing.length === 1 ? 's' : ''} no provider profile. Profiles: ${known.join(', ') || '(none: set providerProfiles, or provider for the default profile)'}.`, { details: { roles: missing } });
  }
  return resolved;
}

/**
 * Checks that every role of a planned turn is in one trust group (what one role reads never goes
 * to a model of another group); throws `trust_group_mismatch` naming the roles and their groups.
 */
export function checkTrustGroups(roles: Readonly<Record<PlannedRole, { readonly name: string; readonly profile: ProviderProfile }>>): void {
  const groups = new Map<string, PlannedRole[]>();
  for (const role of plannedRoles) {
    const group = roles[role].profile.trustGroup;
    groups.set(group, [...(groups.get(group) ?? []), role]);
  }
  if (groups.size <= 1) return;
  const said = [...groups].map(([group, members]) => `${members.join(', ')} in '${group}'`).join('; ');
  throw new PlumbError('trust_group_mismatch', `Every role of a planned turn must be in one trust group: ${said}. Pin the roles to profiles of one group.`, { details: { groups: Object.fromEntries(groups) } });
}

/** Builds one provider per profile in use (a profile shared by roles is built once). */
export async function buildModels(roles: Readonly<Record<PlannedRole, { readonly name: string; readonly profile: ProviderProfile }>>, build: (profile: ProviderProfile) => Promise<Provider>): Promise<PlannedModels> {
  const built = new Map<string, Promise<Provider>>();
  const model = (role: PlannedRole): Promise<Provider> => {
    const { name, profile } = roles[role];
    let provider = built.get(name);
    if (provider === undefined) built.set(name, (provider = build(profile)));
    return provider;
  };
  const providers = await Promise.all(plannedRoles.map(model));
  return Object.fromEntries(plannedRoles.map((role, index) => [role, providers[index]!])) as Record<PlannedRole, Provider>;
}
