import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import type { Actor } from '../core/index.js';
import type { ManagerCatalog } from '../data/index.js';

/**
 * What the tools read from the data layer's `App`: a structural view, so that tools depend on the
 * shape and not on how the data layer builds it.
 */
export interface ChatField {
  readonly name: string;
  readonly type: string;
  readonly description?: string | undefined;
  /** Offered as a filter. Default true. */
  readonly filterable?: boolean | undefined;
  readonly nullable?: boolean | undefined;
  /** The implicit `id`. */
  readonly primaryKey?: boolean | undefined;
}

export type ChatCardinality = 'one' | 'many' | 'manyToMany';

export interface ChatRelation {
  readonly name: string;
  /** The target manager, by name or as the resolved manager. */
  readonly target: string | { readonly name: string };
  /** The data layer calls it `kind`; either spelling is read. */
  readonly kind?: ChatCardinality | undefined;
  readonly cardinality?: ChatCardinality | undefined;
  /** The same relation seen from the target. */
  readonly reverseName?: string | undefined;
  readonly nullable?: boolean | undefined;
  readonly description?: string | undefined;
}

export interface ChatManager {
  readonly name: string;
  readonly description?: string | undefined;
  readonly fields: readonly ChatField[];
  readonly relations: readonly ChatRelation[];
  readonly chatExposed: boolean;
  /** Catalogue metadata that ranks and explains the manager (never what is visible). */
  readonly catalog?: ManagerCatalog | undefined;
  /** The host's named conditions ("overdue"): each a filter in the lookup language, `$now`/`$today` for the asking time. */
  readonly conditions?: readonly ChatCondition[] | undefined;
}

export interface ChatCondition {
  readonly name: string;
  readonly filter: Readonly<Record<string, unknown>>;
  readonly description?: string | undefined;
  readonly words?: { readonly en?: readonly string[] | undefined; readonly 'pt-BR'?: readonly string[] | undefined } | undefined;
}

export interface ChatGraphqlRequest {
  readonly actor: Actor;
  readonly document: string | DocumentNode;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
  /** Each SQL statement is stopped by the database after this long (the data layer's `statementTimeoutMs`). */
  readonly statementTimeoutMs?: number;
}

export interface ChatApp {
  readonly managers: readonly ChatManager[];
  graphql(request: ChatGraphqlRequest): Promise<ExecutionResult>;
  /** The generated schema: mutation names and argument types are read from it when present. */
  readonly schema?: GraphQLSchema | undefined;
  readonly settings?: { readonly maxPageSize?: number | undefined } | undefined;
  /**
   * Optional: the distinct non-null values of a field (as strings), null when there are more than
   * `limit`. Used for vocabularies (the router's value words), never for answers.
   */
  distinctValues?(manager: string, field: string, options: { readonly limit: number; readonly signal?: AbortSignal }): Promise<readonly string[] | null>;
}
