import { defineHost } from 'plumb-agent';
import { Agent, Comment, Customer, Team, Ticket } from './managers.js';
import { assignTicket } from './tools.js';

/** The helpdesk as Plumb sees it: its own tables, attached as they are. */
export default defineHost({
  tables: 'attach',
  managers: [Team, Agent, Customer, Ticket, Comment],
  tools: [assignTicket],
  examples: ['which tickets are open?', 'how many urgent tickets are there?', 'assign ticket 1002 to "ines"'],
});
