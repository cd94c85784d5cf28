import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { PlumbError } from '../core/index.js';
import { defineTool, toolError } from '../tools/index.js';
import type { Tool, ToolEffect } from '../tools/index.js';
import { inputFromJsonSchema } from './json-schema-input.js';

export interface McpToolsOptions {
  /** A connected client of the external server. */
  readonly client: Client;
  /** Each tool's effect as the host declares it, by the server's tool name; undeclared → `write` (confirmed). */
  readonly effects?: Readonly<Record<string, ToolEffect>>;
  /** Put before every tool's Plumb name, e.g. `files_`. Default none. */
  readonly prefix?: string;
  /** Bound on one call. Milliseconds. Default 30,000. */
  readonly timeoutMs?: number;
  /** Which server, in messages. */
  readonly label?: string;
}

/** A Plumb tool name for an MCP tool name: snake_case, lowercase, at most 64 characters, starting with a letter. */
export function plumbToolName(prefix: string, name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const full = `${prefix}${snake}`;
  return (/^[a-z]/.test(full) ? full : `t_${full}`).slice(0, 64);
}

async function listAll(client: Client): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...listed.tools);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      const { type, text } = (typeof part === 'object' && part !== null ? part : {}) as { type?: unknown; text?: unknown };
      return type === 'text' && typeof text === 'string' ? text : '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * The tools of an external MCP server as Plumb host tools: each goes through Plumb's dispatcher
 * like any other (validated against the server's schema, authorized, confirmed by a person unless
 * the host declared it a `read`, bounded in time) and then calls the server. A tool that answers
 * `isError` is a `tool_failed` result with the server's own text.
 */
export async function mcpHostTools(options: McpToolsOptions): Promise<readonly Tool[]> {
  const { client } = options;
  const prefix = options.prefix ?? '';
  const effects = options.effects ?? {};
  const label = options.label ?? 'the MCP server';
  const timeoutMs = options.timeoutMs ?? 30_000;
  const seen = new Map<string, string>();
  const tools: Tool[] = [];
  for (const tool of await listAll(client)) {
    const name = plumbToolName(prefix, tool.name);
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw new PlumbError('mcp_tool_name_clash', `The tools '${earlier}' and '${tool.name}' of ${label} both become '${name}' in Plumb. Set a prefix or ask the server to rename one.`);
    }
    seen.set(name, tool.name);
    const effect: ToolEffect = Object.hasOwn(effects, tool.name) ? effects[tool.name]! : 'write';
    tools.push(
      defineTool({
        name,
        description: (tool.description ?? '').trim() || `The tool ${tool.name} of ${label}.`,
        input: inputFromJsonSchema(tool.inputSchema),
        effect,
        timeoutMs,
        handler: async (args, ctx) => {
          const answer = await client.callTool({ name: tool.name, arguments: args }, undefined, { signal: ctx.signal, timeout: timeoutMs });
          if (answer.isError === true) throw toolError('tool_failed', `${label} answered an error for ${tool.name}: ${textOf(answer.content) || 'no detail given'}`);
          if (answer.structuredContent !== undefined) return answer.structuredContent;
          return { content: textOf(answer.content) };
        },
      }),
    );
  }
  return tools;
}
