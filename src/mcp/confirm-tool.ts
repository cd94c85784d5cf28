import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';

export const confirmToolName = 'confirm';

/** The tool an MCP client without elicitation approves or rejects a held call with. */
export const confirmTool: McpTool = {
  name: confirmToolName,
  description:
    'Approve or reject a change that another tool held for confirmation (it answered status confirmation_required with a message). Ask the person that message first and pass their answer: never confirm on your own.',
  inputSchema: {
    type: 'object',
    properties: {
      confirmation_id: { type: 'string', description: 'The confirmation_id the held call answered with.' },
      confirmed: { type: 'boolean', description: "The person's answer: true to make the change, false to drop it." },
      arguments: { type: 'object', description: 'Optional: the held arguments; when given they must be exactly the ones held.' },
    },
    required: ['confirmation_id', 'confirmed'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
};

type ConfirmArguments =
  | { readonly ok: true; readonly confirmationId: string; readonly confirmed: boolean; readonly arguments: Record<string, unknown> | undefined }
  | { readonly ok: false; readonly message: string };

export function readConfirmArguments(args: Record<string, unknown>): ConfirmArguments {
  const extra = Object.keys(args).filter((key) => !['confirmation_id', 'confirmed', 'arguments'].includes(key));
  if (extra.length > 0) return { ok: false, message: `Unknown arguments for '${confirmToolName}': ${extra.join(', ')}. Give confirmation_id, confirmed and optionally arguments.` };
  const { confirmation_id: id, confirmed, arguments: held } = args;
  if (typeof id !== 'string' || id === '') return { ok: false, message: `'${confirmToolName}' needs confirmation_id: the id the held call answered with.` };
  if (typeof confirmed !== 'boolean') return { ok: false, message: `'${confirmToolName}' needs confirmed: true or false, the person's answer.` };
  if (held !== undefined && (held === null || typeof held !== 'object' || Array.isArray(held))) return { ok: false, message: `'${confirmToolName}': arguments must be the held JSON object.` };
  return { ok: true, confirmationId: id, confirmed, arguments: held as Record<string, unknown> | undefined };
}
