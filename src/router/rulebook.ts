import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { canonicalHash, PlumbError } from '../core/index.js';

export type DestinationKind = 'url' | 'email' | 'channel';

const rulebookSchema = z
  .object({
    /** Whether this host runs calculations (count, sum, average, …) over read results. */
    compute: z.boolean().default(true),
    /** Requests to rephrase per conversation before an unread turn is deferred. */
    maxRephrase: z.number().int().min(0).max(100).default(1),
    /** false: never ask to rephrase; an unread turn is deferred at once. */
    askToRephrase: z.boolean().default(true),
    /** Whether one write may be made once per value when a turn gives several (`charge orders 1 and 2`). */
    batchWrites: z.boolean().default(false),
    /** Parameters that take destinations: `tool.parameter` or `parameter` → the kinds it takes. */
    destinations: z.record(z.string(), z.array(z.enum(['url', 'email', 'channel']))).default({}),
    /** Parameters filled from the session context: `tool.parameter` or `parameter` → context key. */
    contextParameters: z.record(z.string(), z.string()).default({}),
    /** What to do with an unread turn once rephrasing is spent, where a session sets none. */
    onUnread: z.enum(['model', 'refuse']).default('refuse'),
  })
  .strict();

/** A rulebook as a host writes it: every key optional. */
export interface RulebookInput {
  readonly compute?: boolean;
  readonly maxRephrase?: number;
  readonly askToRephrase?: boolean;
  readonly batchWrites?: boolean;
  readonly destinations?: Readonly<Record<string, readonly DestinationKind[]>>;
  readonly contextParameters?: Readonly<Record<string, string>>;
  readonly onUnread?: 'model' | 'refuse';
}
export interface Rulebook {
  readonly compute: boolean;
  readonly maxRephrase: number;
  readonly askToRephrase: boolean;
  readonly batchWrites: boolean;
  readonly destinations: Readonly<Record<string, readonly DestinationKind[]>>;
  readonly contextParameters: Readonly<Record<string, string>>;
  readonly onUnread: 'model' | 'refuse';
  readonly digest: string;
}

/** Parses a rulebook (YAML text or object); every key has a default, unknown keys are errors. */
export function loadRulebook(source: string | RulebookInput | undefined): Rulebook {
  let raw: unknown = source ?? {};
  if (typeof source === 'string') {
    try {
      raw = parseYaml(source) ?? {};
    } catch (error) {
      throw new PlumbError('router_invalid_rulebook', `The rulebook is not valid YAML: ${(error as Error).message}`, { cause: error });
    }
  }
  const parsed = rulebookSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlumbError(
      'router_invalid_rulebook',
      `The rulebook has a problem at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'invalid'}. Keys: compute, maxRephrase, askToRephrase, batchWrites, destinations, contextParameters, onUnread.`,
    );
  }
  const data = parsed.data;
  return Object.freeze({ ...data, digest: canonicalHash(data) });
}

/** The kinds of destination a tool's parameter takes, by `tool.parameter` then by `parameter`. */
export function destinationKinds(rulebook: Rulebook, tool: string, parameter: string): readonly DestinationKind[] {
  return rulebook.destinations[`${tool}.${parameter}`] ?? rulebook.destinations[parameter] ?? [];
}

export function contextKey(rulebook: Rulebook, tool: string, parameter: string): string | undefined {
  return rulebook.contextParameters[`${tool}.${parameter}`] ?? rulebook.contextParameters[parameter];
}
