import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { PlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import { errorResult, isConfirmationRequired } from '../tools/index.js';
import type { ConfirmationRequiredResult, Dispatcher } from '../tools/index.js';
import { callResult } from './call-result.js';
import { confirmationSentence } from './confirm-sentence.js';
import { confirmTool, confirmToolName, readConfirmArguments } from './confirm-tool.js';
import { askPerson } from './elicit.js';
import type { CallExtra } from './elicit.js';

export interface McpToolServerOptions {
  /** Every call goes through it: exposure, validation, authorization, confirmation, bounds. */
  readonly dispatcher: Dispatcher;
  /** Who every call runs as: the configured actor over stdio, the token's over HTTP. */
  readonly actor: Actor;
  readonly name?: string;
  readonly version?: string;
  /**
   * How a held write is confirmed. `auto` (default): by MCP elicitation when the client declares
   * it, else through the `confirm` tool; `tool`: always the `confirm` tool.
   */
  readonly confirmWith?: 'auto' | 'tool';
  /**
   * Asked before each tool call (the confirm tool's too): a refusal (`{ error: { code, message } }`,
   * e.g. a spent `rate_limited` budget) is the call's answer and nothing runs.
   */
  readonly admit?: () => Promise<ToolRefusal | undefined>;
}

/** A call refused before the dispatcher, as the result the client gets. */
export interface ToolRefusal {
  readonly error: { readonly code: string; readonly message: string; readonly details?: Readonly<Record<string, unknown>> };
}

/**
 * An MCP server over a dispatcher. Its tools are the dispatcher's, with their JSON Schemas and
 * effects as hints; a call that needs a person's confirmation is asked for by elicitation, or
 * answers `confirmation_required` with the sentence to confirm and a `confirm` tool to use —
 * single use, bound to the arguments and the actor, as in chat.
 */
export function createMcpToolServer(options: McpToolServerOptions): McpServer {
  const { dispatcher, actor } = options;
  if (dispatcher.tool(confirmToolName) !== undefined) {
    throw new PlumbError('mcp_tool_conflict', `A tool is named '${confirmToolName}', the name the MCP server gives its confirmation tool. Rename that tool.`);
  }
  const mcp = new McpServer({ name: options.name ?? 'plumb', version: options.version ?? '0.0.0' }, { capabilities: { tools: {} } });
  const server = mcp.server;
  const elicits = (): boolean => options.confirmWith !== 'tool' && server.getClientCapabilities()?.elicitation !== undefined;

  const listed = (): McpTool[] => {
    const tools: McpTool[] = dispatcher.definitions().map((definition) => {
      const effect = dispatcher.tool(definition.name)?.effect ?? 'write';
      return {
        name: definition.name,
        description: definition.description,
        inputSchema: definition.parameters as McpTool['inputSchema'],
        annotations: { readOnlyHint: effect === 'read', destructiveHint: effect === 'irreversible', openWorldHint: false },
      };
    });
    // With elicitation the person answers the client's own form; a model is never offered a way to approve for them.
    return elicits() ? tools : [...tools, confirmTool];
  };

  const held = async (result: ConfirmationRequiredResult, extra: CallExtra): Promise<CallToolResult> => {
    const sentence = confirmationSentence(result.tool, result.arguments, actor, result.expires_at);
    if (elicits()) {
      const confirmed = await askPerson(extra, sentence);
      return callResult(await dispatcher.confirm(result.confirmation_id, { actor, confirmed, arguments: result.arguments, signal: extra.signal }));
    }
    return callResult({
      ...result,
      message: sentence,
      next: `Ask the person exactly this. On a yes, call ${confirmToolName} with { "confirmation_id": "${result.confirmation_id}", "confirmed": true }; on a no, with "confirmed": false.`,
    });
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const refusal = await options.admit?.();
    if (refusal !== undefined) return { ...callResult(refusal), isError: true };
    if (name === confirmToolName && !elicits()) {
      const parsed = readConfirmArguments(args);
      if (!parsed.ok) return callResult(errorResult('invalid_arguments', parsed.message));
      return callResult(await dispatcher.confirm(parsed.confirmationId, { actor, confirmed: parsed.confirmed, signal: extra.signal, ...(parsed.arguments === undefined ? {} : { arguments: parsed.arguments }) }));
    }
    const result = await dispatcher.dispatch({ name, arguments: args }, { actor, signal: extra.signal, canConfirm: true });
    if (isConfirmationRequired(result)) return held(result, extra);
    return callResult(result);
  });
  return mcp;
}
