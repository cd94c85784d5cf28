import { defineTool, toolError, z } from 'plumb-agent';

const findAgent = `query Agent($login: String!) { agentList(filter: { login: $login }) { items { id login team { id } } } }`;
const findTicket = `query Ticket($id: ID!) { ticket(id: $id) { id subject team { id name } assignee { login } } }`;
const assign = `mutation Assign($id: ID!, $input: TicketUpdateInput!) { updateTicket(id: $id, input: $input) { id subject assignee { login fullName } } }`;

/**
 * Assigns a ticket to an agent of its team. A write: a person confirms it first, and it runs as
 * that person, so a ticket of another team is not found for them.
 */
export const assignTicket = defineTool({
  name: 'assign_ticket',
  description: 'Assign a ticket to an agent of the team that handles it.',
  input: z.object({
    ticket_id: z.string().regex(/^[0-9]{1,9}$/, 'a ticket number is digits only, such as "1002"').describe('The ticket number, such as "1002".'),
    agent: z.string().min(1).max(40).describe('The login of the agent, such as "ines".'),
  }),
  effect: 'write',
  handler: async (args, ctx) => {
    if (ctx.app === undefined) throw new Error('assign_ticket runs inside a Plumb app');
    const read = async <T>(document: string, variables: Record<string, unknown>): Promise<T> => {
      const result = await ctx.app!.graphql({ actor: ctx.actor, document, variables, signal: ctx.signal });
      if (result.errors !== undefined && result.errors.length > 0) throw toolError('forbidden', result.errors[0]!.message);
      return result.data as T;
    };
    const { ticket } = await read<{ ticket: { id: string; team: { id: string; name: string } } | null }>(findTicket, { id: args.ticket_id });
    if (ticket === null) throw toolError('invalid_arguments', `No ticket ${args.ticket_id} that you can see.`);
    const { agentList } = await read<{ agentList: { items: { id: string; team: { id: string } }[] } }>(findAgent, { login: args.agent });
    const agent = agentList.items[0];
    if (agent === undefined) throw toolError('invalid_arguments', `No agent with the login '${args.agent}'.`);
    if (agent.team.id !== ticket.team.id) throw toolError('invalid_arguments', `${args.agent} is not in ${ticket.team.name}, the team of ticket ${ticket.id}.`);
    const { updateTicket } = await read<{ updateTicket: unknown }>(assign, { id: ticket.id, input: { assignee: agent.id } });
    return updateTicket;
  },
});
