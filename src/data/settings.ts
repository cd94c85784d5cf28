import { z } from 'zod';
import { PlumbError } from '../core/index.js';

/** Data-layer settings: every default in one place. */
export const dataSettingsSchema = z
  .strictObject({
    /** Default and maximum `pageSize` of list queries (rows). */
    maxPageSize: z.number().int().min(1).max(10_000).default(200),
    /** Most rows a `many`/`manyToMany` relation field returns per parent row (rows). */
    maxRelationRows: z.number().int().min(1).max(100_000).default(1000),
    /** Most rows one request (a GraphQL document, a list call) may read in total (rows). */
    maxRowsPerRequest: z.number().int().min(1).max(10_000_000).default(100_000),
  })
  .readonly();

export type DataSettings = z.output<typeof dataSettingsSchema>;
export type DataSettingsInput = z.input<typeof dataSettingsSchema>;

export function parseDataSettings(input: unknown = {}): DataSettings {
  const parsed = dataSettingsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new PlumbError('invalid_settings', `Invalid data settings: ${problems.join('; ')}.`, { details: { problems } });
  }
  return Object.freeze({ ...parsed.data });
}
