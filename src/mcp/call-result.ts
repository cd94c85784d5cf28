import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isToolError } from '../tools/index.js';

/**
 * A dispatcher result as an MCP tool result: its JSON as text (what every client reads), the same
 * object as `structuredContent`, and `isError` for an error result (`{ error: { code, message } }`),
 * so that a model sees the same codes and messages it would in chat.
 */
export function callResult(result: unknown): CallToolResult {
  const structured = typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    ...(structured === undefined ? {} : { structuredContent: structured }),
    ...(isToolError(result) ? { isError: true } : {}),
  };
}
