import { z } from 'zod';
import { PlumbError } from '../core/index.js';
import { maxLookupDepth } from '../data/index.js';

/** The chat tool settings, every default in one place (units in the names). Unknown keys are errors. */
export const toolSettingsSchema = z.strictObject({
  /** `discovery`: the five stable tools. `direct`: one `query_<manager>` tool per exposed manager. */
  toolStrategy: z.enum(['discovery', 'direct']).default('discovery'),
  /** Exact generated mutation names `mutate` may execute. Empty: a read-only assistant. */
  allowedMutations: z.array(z.string().min(1)).default([]),
  /** Allowed mutation names that need a person's confirmation before they run. */
  confirmMutations: z.array(z.string().min(1)).default([]),
  /** Largest page `query` returns; also its default `limit`. Rows. */
  maxResults: z.int().positive().max(10_000).default(200),
  /** Bound on one `query` execution; null: no bound. Seconds. */
  queryTimeoutSeconds: z.number().positive().nullable().default(null),
  /** Lifetime of a pending confirmation. Seconds. */
  confirmTimeoutSeconds: z.number().positive().default(30),
  /** Largest serialized tool result; larger results are cut and flagged `truncated`. Bytes (UTF-8). */
  maxResultBytes: z.int().min(256).default(65_536),
  /**
   * Most relations a `query` selection may nest, or a filter key traverse. Relations. At most the
   * data layer's own ceiling (`maxLookupDepth`, 3): its generated filters go no deeper.
   */
  maxRelationDepth: z.int().min(1).max(maxLookupDepth).default(maxLookupDepth),
});

export type ToolSettingsInput = z.input<typeof toolSettingsSchema>;
export type ToolSettings = Readonly<z.output<typeof toolSettingsSchema>>;

/** Parses, defaults and freezes tool settings; throws `invalid_tool_settings` naming each bad key. */
export function parseToolSettings(input: ToolSettingsInput | undefined = {}): ToolSettings {
  const result = toolSettingsSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const path = issue.path.length === 0 ? '(settings)' : issue.path.map(String).join('.');
      return `${path}: ${issue.message}`;
    });
    throw new PlumbError('invalid_tool_settings', `Invalid tool settings. ${problems.join('; ')}.`, {
      details: { problems },
    });
  }
  const value = result.data;
  return Object.freeze({
    ...value,
    allowedMutations: Object.freeze([...value.allowedMutations]),
    confirmMutations: Object.freeze([...value.confirmMutations]),
  }) as ToolSettings;
}

/** The defaults, parsed once. */
export const defaultToolSettings: ToolSettings = parseToolSettings({});
