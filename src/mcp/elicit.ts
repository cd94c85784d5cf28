import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Asks the person through the client (MCP elicitation, sent as part of the tool call so that a
 * Streamable HTTP client gets it on that call's stream): true only for an explicit yes. A
 * declined or dismissed form, or a client that fails to answer, is a no.
 */
export async function askPerson(extra: CallExtra, message: string): Promise<boolean> {
  try {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Confirm', description: 'Yes: make this change now. No: do not make it.' } },
            required: ['confirm'],
          },
        },
      },
      ElicitResultSchema,
      { signal: extra.signal },
    );
    return answer.action === 'accept' && answer.content?.confirm === true;
  } catch {
    return false;
  }
}
