import type { DocumentNode, ExecutionResult } from 'graphql';
import type { Actor } from '../core/index.js';

/**
 * What the tools read from the data layer's `App`: a structural view, so that tools depend on the
 * shape and not on how the data layer builds it.
 */
export interface ChatField {
  readonly name: string;
  readonly type: string;
  readonly description?: string | undefined;
  readonly filterable?: boolean | undefined;
}

export interface ChatRelation {
  readonly name: string;
  readonly target: string;
  readonly cardinality: 'one' | 'many' | 'manyToMany';
  readonly description?: string | undefined;
}

export interface ChatManager {
  readonly name: string;
  readonly description?: string | undefined;
  readonly fields: readonly ChatField[];
  readonly relations: readonly ChatRelation[];
  readonly chatExposed: boolean;
}

export interface ChatGraphqlRequest {
  readonly actor: Actor;
  readonly document: string | DocumentNode;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

export interface ChatApp {
  readonly managers: readonly ChatManager[];
  graphql(request: ChatGraphqlRequest): Promise<ExecutionResult>;
  /** Valid lookup keys of a manager's filters (the data layer's `filterKeys`). */
  readonly filterKeys?: (manager: string) => readonly string[];
  /** Generated mutation names; derived from the managers when absent. */
  readonly mutationNames?: () => readonly string[];
}
