import { anonymous, userActor } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { PlumbConfig } from './schema.js';

/** The names `--as` accepts: `anonymous`, then the configuration's actors. */
export function actorNames(config: PlumbConfig): readonly string[] {
  return ['anonymous', ...Object.keys(config.actors)];
}

/** The actor a configuration names (`anonymous` is always there); undefined for an unknown name. */
export function namedActor(config: PlumbConfig, name: string): Actor | undefined {
  if (name === 'anonymous') return anonymous;
  const actors: Readonly<Record<string, PlumbConfig['actors'][string]>> = config.actors;
  if (!Object.hasOwn(actors, name)) return undefined;
  const found = actors[name]!;
  return userActor(found.id, found.roles, found.displayName);
}
