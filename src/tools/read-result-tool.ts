import { z } from 'zod';
import type { Actor, JsonValue } from '../core/index.js';
import { defineTool, toolError } from './define-tool.js';
import type { Tool } from './define-tool.js';
import { resultPage } from './result-pages.js';

/** The name of the built-in tool that pages through a large result. */
export const readResultToolName = 'read_result';

/**
 * Finds a stored result by its id, as the actor in the thread the call runs in: undefined for an
 * id that is unknown, another thread's, or not the actor's (the three look the same).
 */
export type StoredResultLookup = (request: { readonly resultId: string; readonly threadId: string | undefined; readonly actor: Actor }) => Promise<JsonValue | undefined>;

/**
 * `read_result`: the next part of a tool result that was too large to show whole. Read-only; it
 * finds results through `lookup` (the engine's journal, scoped to the turn's thread and actor) and
 * answers pages that fit `maxResultBytes`.
 */
export function createReadResultTool(lookup: StoredResultLookup): Tool {
  return defineTool({
    name: readResultToolName,
    description:
      'Reads on in a tool result that was too large to show whole (it came back with truncated: true, a result_id and next_offset). Give the result_id and the offset to read from; the answer holds that part of the result\'s JSON text and the next_offset (null at the end).',
    input: z.object({
      result_id: z.string().min(1).max(200).describe('The result_id of the shortened result.'),
      offset: z.int().nonnegative().default(0).describe('Where to read from: a byte offset in the result\'s JSON text (its next_offset).'),
    }),
    effect: 'read',
    handler: async (args, ctx) => {
      const value = await lookup({ resultId: args.result_id, threadId: ctx.threadId, actor: ctx.actor });
      if (value === undefined) throw toolError('result_not_found', `No stored result '${args.result_id.slice(0, 80)}' in this conversation.`);
      const json = Buffer.from(JSON.stringify(value), 'utf8');
      if (args.offset > json.length) throw toolError('invalid_arguments', `offset ${args.offset} is past the end of the result (${json.length} bytes).`);
      return resultPage(json, args.result_id, args.offset, ctx.settings.maxResultBytes);
    },
  });
}
