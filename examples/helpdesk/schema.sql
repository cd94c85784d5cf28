-- A helpdesk's own PostgreSQL schema, as its own migrations made it: Plumb attaches to these
-- tables (tables: 'attach') and never creates or changes them.
create table teams (
  id serial primary key,
  name text not null unique
);

create table agents (
  id serial primary key,
  login text not null unique,
  full_name text not null,
  team_id integer not null references teams (id)
);

create table customers (
  id serial primary key,
  login text not null unique,
  full_name text not null,
  email text not null,
  company text
);

create table tickets (
  id serial primary key,
  subject text not null,
  status text not null default 'open' check (status in ('open', 'pending', 'solved')),
  priority text not null default 'normal' check (priority in ('low', 'normal', 'urgent')),
  opened_at timestamptz not null default now(),
  customer_id integer not null references customers (id),
  team_id integer not null references teams (id),
  assignee_id integer references agents (id)
);

create table comments (
  id serial primary key,
  ticket_id integer not null references tickets (id),
  author_login text not null,
  body text not null,
  internal boolean not null default false,
  created_at timestamptz not null default now()
);

insert into teams (id, name) values (1, 'Billing'), (2, 'Hardware');
insert into agents (id, login, full_name, team_id) values
  (1, 'maya', 'Maya Costa', 1),
  (2, 'omar', 'Omar Haddad', 2),
  (3, 'ines', 'Inês Prado', 1);
insert into customers (id, login, full_name, email, company) values
  (1, 'lena', 'Lena Berg', 'lena@example.com', 'Nordlicht GmbH'),
  (2, 'tom', 'Tom Okafor', 'tom@example.com', null);
insert into tickets (id, subject, status, priority, opened_at, customer_id, team_id, assignee_id) values
  (1001, 'Charged twice for November', 'open', 'urgent', '2026-11-20T09:12:00Z', 1, 1, 1),
  (1002, 'Invoice address is wrong', 'open', 'normal', '2026-11-22T14:03:00Z', 2, 1, null),
  (1003, 'Printer prints blank pages', 'pending', 'normal', '2026-11-23T08:40:00Z', 1, 2, 2),
  (1004, 'Refund for a returned dock', 'solved', 'low', '2026-11-10T16:25:00Z', 2, 1, 3),
  (1005, 'Laptop does not charge', 'open', 'urgent', '2026-11-28T11:00:00Z', 2, 2, null);
insert into comments (ticket_id, author_login, body, internal, created_at) values
  (1001, 'lena', 'I was charged 49.00 twice on 19 November.', false, '2026-11-20T09:12:00Z'),
  (1001, 'maya', 'Payment provider confirms a duplicate; refund on Monday.', true, '2026-11-20T10:30:00Z'),
  (1003, 'omar', 'Sent a new fuser unit.', false, '2026-11-24T09:00:00Z');
select setval(pg_get_serial_sequence('tickets', 'id'), 1005);
select setval(pg_get_serial_sequence('comments', 'id'), 3);
