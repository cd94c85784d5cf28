import { isPlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { App } from './app.js';
import { compileCondition } from './conditions.js';
import { didYouMeanKey } from './lookups.js';
import type { Manager } from './model.js';

/** A manager's read permission that fails for some actors, as a request of theirs would (`permission_error`). */
export interface PermissionProblem {
  readonly manager: string;
  /** The names of the actors it fails for. */
  readonly actors: readonly string[];
  readonly message: string;
}

/**
 * Runs every manager's read permission for each actor and compiles the condition it returns as a
 * request does (nothing reaches the database): what would fail closed at run time — a permission
 * that throws, returns something that is not a condition, or filters on a key or value the
 * manager does not have. Actors for whom the same thing fails share one problem.
 */
export function readPermissionProblems(app: App, actors: readonly { readonly name: string; readonly actor: Actor }[]): PermissionProblem[] {
  const scope = { fragments: app.database.fragments, values: app.database.values, readCondition: undefined };
  const problems: PermissionProblem[] = [];
  for (const manager of app.managers) {
    const failing = new Map<string, string[]>();
    for (const { name, actor } of actors) {
      try {
        compileCondition(scope, manager, 't0', manager.permissions.read(actor));
      } catch (error) {
        const reason = failure(manager, error);
        failing.set(reason, [...(failing.get(reason) ?? []), name]);
      }
    }
    for (const [reason, names] of failing) {
      problems.push({ manager: manager.name, actors: names, message: `${manager.name}: the read permission, for ${names.map((name) => `'${name}'`).join(', ')}, ${reason}` });
    }
  }
  return problems;
}

function failure(manager: Manager, error: unknown): string {
  if (isPlumbError(error) && error.code === 'unknown_filter_key') {
    const given = (error.details as { key?: unknown } | undefined)?.key;
    const key = typeof given === 'string' ? given : '';
    return `returns a filter on '${key}', which ${manager.name} does not have: every read of ${manager.name} would be refused (permission_error).${didYouMeanKey(manager, key)}`;
  }
  const text = error instanceof Error ? error.message : String(error);
  if (isPlumbError(error)) return `returns a condition that fails: ${text} Every read of ${manager.name} would be refused (permission_error).`;
  return `throws: ${text}. Every read of ${manager.name} would be refused (permission_error).`;
}
