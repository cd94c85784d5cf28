/**
 * Plumb over the Model Context Protocol: the same tools through the same dispatcher, over stdio
 * and Streamable HTTP; and the tools of other MCP servers as host tools.
 */
export { createMcpToolServer } from './tool-server.js';
export type { McpToolServerOptions, ToolRefusal } from './tool-server.js';
export { confirmationSentence } from './confirm-sentence.js';
export { confirmToolName } from './confirm-tool.js';
export { serveMcpStdio } from './stdio.js';
export type { StdioOptions } from './stdio.js';
export { createMcpHttpHandler, listenMcpHttp } from './http.js';
export type { McpHttpHandler, McpHttpOptions } from './http.js';
export { bearerTokens } from './http-actor.js';
export type { McpAuthenticate } from './http-actor.js';
export { mcpHostTools, plumbToolName } from './host-tools.js';
export type { McpToolsOptions } from './host-tools.js';
export { connectMcpServers } from './connect-servers.js';
export type { ConnectedMcpTools, ExternalMcpServer } from './connect-servers.js';
export { mcpErrorCodes } from './errors.js';
export type { McpErrorCode } from './errors.js';
