import { z } from 'zod';
import type { ToolInputSchema } from '../tools/index.js';

/**
 * An MCP tool's JSON Schema as the zod object a Plumb tool validates with, so that a call is
 * checked here before it leaves. A schema zod cannot read, or one that is not an object, becomes a
 * loose object: the external server still validates its own input.
 */
export function inputFromJsonSchema(schema: Readonly<Record<string, unknown>>): ToolInputSchema {
  try {
    const converted = z.fromJSONSchema(schema);
    if (converted instanceof z.ZodObject) return converted;
  } catch {
    // Fall through to the loose object.
  }
  return z.looseObject({});
}
