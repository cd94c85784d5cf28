import { checkConfiguration as checkSettings } from '../config/index.js';
import type { CheckOptions, ConnectMcpServers } from '../config/index.js';

// The MCP client loads only for a configuration that names MCP servers.
const connectMcpServers: ConnectMcpServers = async (servers, options) => (await import('../mcp/index.js')).connectMcpServers(servers, options);

/** `plumb check` as a library call: config's check, with the MCP client to reach `mcpServers`. */
export function checkConfiguration(options: CheckOptions = {}): ReturnType<typeof checkSettings> {
  return checkSettings({ connectMcpServers, ...options });
}
