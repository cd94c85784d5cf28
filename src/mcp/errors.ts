import type { ErrorCatalogue } from '../core/index.js';

/** Codes of serving Plumb over MCP and of using other MCP servers' tools. */
export const mcpErrorCodes = {
  mcp_tool_conflict: "A tool of the app is named 'confirm', the name the MCP server gives its confirmation tool.",
  mcp_server_unavailable: 'An external MCP server in mcpServers could not be started, reached or listed.',
  mcp_tool_name_clash: 'Two external MCP tools (or an external tool and a host tool) end up with the same Plumb name; set a prefix.',
  invalid_token: 'An MCP HTTP request carried a bearer token that names no actor: 401.',
  mcp_session_limit: 'Every MCP HTTP session is busy (mcp.maxSessions) and none is idle long enough to close: 503.',
  mcp_session_not_found: 'An MCP HTTP request names a session that does not exist or was closed: 404, initialize again.',
  mcp_session_forbidden: 'An MCP HTTP request uses a session opened by another actor: 403.',
} as const satisfies ErrorCatalogue;

export type McpErrorCode = keyof typeof mcpErrorCodes;
