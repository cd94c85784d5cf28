import { plannedSettingsSchema, providerProfilesSchema } from '../planned/index.js';

/** Named provider profiles and planned read orchestration (docs/planned.md). */
export const plannedSettingsShape = { providerProfiles: providerProfilesSchema, planned: plannedSettingsSchema } as const;
