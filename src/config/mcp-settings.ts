import { z } from 'zod';
import { toolEffects } from '../tools/index.js';

/** One external MCP server whose tools join the host's: a command to spawn (stdio) or a Streamable HTTP URL. */
export const mcpServerSettingSchema = z
  .strictObject({
    /** The program that speaks MCP on its stdin and stdout, e.g. `npx`. */
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    /** Variables added to the spawned server's environment (`${NAME}` references work here too). */
    env: z.record(z.string(), z.string()).default({}),
    /** The server's Streamable HTTP endpoint, instead of `command`. */
    url: z.url({ protocol: /^https?$/ }).optional(),
    /** Headers sent to `url` (an `Authorization` header, say). */
    headers: z.record(z.string(), z.string()).default({}),
    /** Each tool's effect as this host declares it; a tool not named here is a `write`, confirmed by a person. */
    effects: z.record(z.string(), z.enum(toolEffects)).default({}),
    /** Put before each tool's name (default: the server's key and `_`), so that two servers never clash. */
    prefix: z.string().regex(/^[a-z][a-z0-9_]*$/, 'lowercase letters, digits and _ (starting with a letter)').optional(),
    /** Bound on one call to one of its tools. Seconds. */
    timeoutSeconds: z.number().positive().default(30),
  })
  .refine((server) => (server.command === undefined) !== (server.url === undefined), 'give exactly one of command (a stdio server) or url (a Streamable HTTP server)');

export type McpServerSetting = z.output<typeof mcpServerSettingSchema>;

const serverKey = z.string().regex(/^[a-z][a-z0-9_]*$/, 'name servers with lowercase letters, digits and _ (starting with a letter)');

/** `plumb mcp`: Plumb's tools served over the Model Context Protocol. */
export const mcpSchema = z
  .strictObject({
    /** Path of the Streamable HTTP endpoint (`plumb mcp --http`). */
    path: z.string().regex(/^\/[A-Za-z0-9/_.~-]*$/, 'a path such as /mcp').default('/mcp'),
    /** TCP port of `plumb mcp --http` (0 picks a free one). */
    port: z.int().min(0).max(65_535).default(8788),
    /** Interface `plumb mcp --http` listens on. */
    host: z.string().min(1).default('127.0.0.1'),
    /** Bearer tokens for HTTP, by actor name (one of `actors`): `{ alice: '${ALICE_MCP_TOKEN}' }`. At least 16 characters each. */
    tokens: z.record(z.string(), z.string().min(16, 'a token of at least 16 characters')).default({}),
    /** Open HTTP sessions at once; past it, the least recently used idle one is closed, or the new one refused. */
    maxSessions: z.int().positive().default(100),
    /** An HTTP session unused this long may be closed for a new one. Seconds. */
    sessionIdleSeconds: z.number().positive().default(900),
  })
  .prefault({});

export const mcpSettingsShape = {
  mcp: mcpSchema,
  /** External MCP servers whose tools become host tools, by name (`{ files: { command: 'npx', args: [...] } }`). */
  mcpServers: z.record(serverKey, mcpServerSettingSchema).default({}),
} as const;
