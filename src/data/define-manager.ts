import { PlumbError } from '../core/index.js';
import { checkManagerSpec } from './check-manager.js';
import type { ManagerSpec } from './definition-types.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Checks one manager declaration and returns it frozen; throws `invalid_definition` listing every problem. */
export function defineManager<const S extends ManagerSpec>(spec: S): S {
  const problems = checkManagerSpec(spec);
  if (problems.length > 0) {
    throw new PlumbError('invalid_definition', `Invalid manager definition:\n- ${problems.join('\n- ')}`, { details: { problems } });
  }
  return deepFreeze(spec);
}
