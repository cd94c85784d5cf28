import { defineManager, hasRole, isAuthenticated } from 'plumb-agent';
import type { Actor } from 'plumb-agent';

const isAgent = (actor: Actor): boolean => hasRole(actor, 'agent');
const isCustomer = (actor: Actor): boolean => hasRole(actor, 'customer');

export const Team = defineManager({
  name: 'Team',
  table: 'teams',
  description: 'A support team; every ticket belongs to one.',
  fields: { name: 'string' },
  chatExposed: true,
  permissions: { read: isAuthenticated, create: () => false, update: () => false, delete: () => false },
});

export const Agent = defineManager({
  name: 'Agent',
  table: 'agents',
  description: 'A support agent, by login, in one team.',
  fields: { login: 'string', fullName: { type: 'string', column: 'full_name' } },
  relations: { team: { kind: 'one', target: 'Team', column: 'team_id', reverse: 'agents' } },
  chatExposed: true,
  permissions: { read: isAuthenticated, create: () => false, update: () => false, delete: () => false },
});

export const Customer = defineManager({
  name: 'Customer',
  table: 'customers',
  description: 'A customer who opens tickets.',
  fields: { login: 'string', fullName: { type: 'string', column: 'full_name' }, email: 'string', company: { type: 'string', nullable: true } },
  chatExposed: true,
  // Agents see every customer; a customer sees themselves.
  permissions: { read: (actor) => (isAgent(actor) ? true : isCustomer(actor) && actor.kind === 'user' ? { login: actor.id } : false), create: () => false, update: () => false, delete: () => false },
});

/** An agent sees the tickets of their own team; a customer sees the tickets they opened. */
export const Ticket = defineManager({
  name: 'Ticket',
  table: 'tickets',
  description: 'A support request: its subject, status, priority, the customer who opened it, the team that handles it and the agent it is assigned to.',
  fields: {
    subject: 'string',
    status: { type: 'enum', values: ['open', 'pending', 'solved'], default: 'open' },
    priority: { type: 'enum', values: ['low', 'normal', 'urgent'], default: 'normal' },
    openedAt: { type: 'datetime', column: 'opened_at', description: 'When the ticket was opened.' },
  },
  relations: {
    customer: { kind: 'one', target: 'Customer', column: 'customer_id', reverse: 'tickets' },
    team: { kind: 'one', target: 'Team', column: 'team_id', reverse: 'tickets' },
    assignee: { kind: 'one', target: 'Agent', column: 'assignee_id', nullable: true, reverse: 'assignedTickets' },
  },
  chatExposed: true,
  permissions: {
    read: (actor) => (actor.kind !== 'user' ? false : isAgent(actor) ? { team__agents__login: actor.id } : isCustomer(actor) ? { customer__login: actor.id } : false),
    create: () => false,
    // A ticket an agent may not read is not found for them: agents change their own team's tickets.
    update: isAgent,
    delete: () => false,
  },
});

/** Comments follow their ticket; a customer never sees the agents' internal notes. */
export const Comment = defineManager({
  name: 'Comment',
  table: 'comments',
  description: 'A comment on a ticket; internal ones are notes between agents.',
  fields: {
    authorLogin: { type: 'string', column: 'author_login' },
    body: 'text',
    internal: { type: 'boolean', default: false },
    createdAt: { type: 'datetime', column: 'created_at' },
  },
  relations: { ticket: { kind: 'one', target: 'Ticket', column: 'ticket_id', reverse: 'comments' } },
  chatExposed: true,
  permissions: {
    read: (actor) => (actor.kind !== 'user' ? false : isAgent(actor) ? { ticket__team__agents__login: actor.id } : isCustomer(actor) ? { ticket__customer__login: actor.id, internal: false } : false),
    create: () => false,
    update: () => false,
    delete: () => false,
  },
});
