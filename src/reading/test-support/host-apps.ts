/**
 * Host apps unlike the demo, for testing the reading families over other schemas: the library of
 * docs/your-app.md, the helpdesk of examples/helpdesk (its managers, tools and vocabulary as they
 * are, its schema.sql rows as a seed) and the app `plumb init` writes (src/cli/init/template.ts).
 * The example and template files import `plumb`; they are copied with that import pointed at this
 * source tree, then opened on SQLite in memory.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { appFiles } from '../../cli/init/template.js';
import { defineHost, openHostApp } from '../../config/index.js';
import type { HostDefinition, OpenedApp } from '../../config/index.js';
import { hasRole, isAuthenticated } from '../../core/index.js';
import type { Actor } from '../../core/index.js';
import { defineManager } from '../../data/index.js';
import type { Tool } from '../../tools/index.js';

const source = fileURLToPath(new URL('../../index.ts', import.meta.url));
const examples = fileURLToPath(new URL('../../../examples', import.meta.url));

/** Writes host files to a temporary folder with `plumb` pointed at this tree, and imports the modules named. */
async function importCopied(files: Readonly<Record<string, string>>, entries: readonly string[]): Promise<{ modules: Record<string, unknown>[]; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-host-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text.replaceAll("from 'plumb-agent'", `from '${source}'`));
  }
  const modules: Record<string, unknown>[] = [];
  for (const entry of entries) modules.push((await import(pathToFileURL(join(dir, entry)).href)) as Record<string, unknown>);
  return { modules, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const isLibrarian = (actor: Actor): boolean => hasRole(actor, 'librarian');
const closed = { create: isLibrarian, update: isLibrarian, delete: isLibrarian };

/** The library of docs/your-app.md, with a few books, members and loans. */
export function libraryHost(): HostDefinition {
  const Book = defineManager({
    name: 'Book',
    description: 'A title the library holds, with its author, the year it was published and how many copies it owns.',
    fields: {
      title: { type: 'string' },
      author: { type: 'string' },
      publishedYear: { type: 'integer', nullable: true, description: 'The year the book was first published.' },
      copies: { type: 'integer', default: 1, description: 'Copies the library owns.' },
    },
    chatExposed: true,
    permissions: { read: () => true, ...closed },
  });
  const Member = defineManager({
    name: 'Member',
    description: 'A member of the library, by email.',
    fields: { email: { type: 'string' }, fullName: { type: 'string' }, joinedOn: { type: 'date' } },
    chatExposed: true,
    permissions: { read: (actor) => (isLibrarian(actor) ? true : isAuthenticated(actor) ? { email: actor.id } : false), ...closed },
  });
  const Loan = defineManager({
    name: 'Loan',
    description: 'A book a member borrowed: when, when it is due back, and when it came back (empty while it is out).',
    fields: {
      borrowedOn: { type: 'date' },
      dueOn: { type: 'date', description: 'The day the book is due back.' },
      returnedOn: { type: 'date', nullable: true, description: 'The day it came back; empty while it is out.' },
    },
    relations: { member: { kind: 'one', target: 'Member' }, book: { kind: 'one', target: 'Book' } },
    chatExposed: true,
    permissions: { read: (actor) => (isLibrarian(actor) ? true : isAuthenticated(actor) ? { member__email: actor.id } : false), ...closed },
  });
  return defineHost({
    managers: [Book, Member, Loan],
    seed: [
      {
        manager: 'Book',
        rows: [
          { id: 1, title: 'The Remains of the Day', author: 'Kazuo Ishiguro', publishedYear: 1989, copies: 2 },
          { id: 2, title: 'Never Let Me Go', author: 'Kazuo Ishiguro', publishedYear: 2005, copies: 1 },
          { id: 3, title: 'Dom Casmurro', author: 'Machado de Assis', publishedYear: 1899, copies: 3 },
          { id: 4, title: 'Middlemarch', author: 'George Eliot', publishedYear: 1871, copies: 1 },
        ],
      },
      {
        manager: 'Member',
        rows: [
          { id: 1, email: 'ben@library.example', fullName: 'Ben Carter', joinedOn: '2025-02-01' },
          { id: 2, email: 'rosa@library.example', fullName: 'Rosa Lima', joinedOn: '2026-01-15' },
        ],
      },
      {
        manager: 'Loan',
        rows: [
          { id: 1, member: 1, book: 1, borrowedOn: '2026-11-01', dueOn: '2026-11-29', returnedOn: '2026-11-20' },
          { id: 2, member: 1, book: 3, borrowedOn: '2026-11-20', dueOn: '2026-12-18', returnedOn: null },
          { id: 3, member: 2, book: 2, borrowedOn: '2026-11-10', dueOn: '2026-12-01', returnedOn: null },
        ],
      },
    ],
  });
}

/** The helpdesk of examples/helpdesk: its managers, tool and vocabulary, seeded with the rows of its schema.sql. */
export async function helpdeskHost(): Promise<{ host: HostDefinition; vocabulary: string; remove: () => void }> {
  const app = join(examples, 'helpdesk', 'app');
  const read = (name: string): string => readFileSync(join(app, name), 'utf8');
  const copied = await importCopied({ 'managers.ts': read('managers.ts'), 'tools.ts': read('tools.ts') }, ['managers.ts', 'tools.ts']);
  const [managers = {}, tools = {}] = copied.modules;
  const m = managers as Record<'Team' | 'Agent' | 'Customer' | 'Ticket' | 'Comment', HostDefinition['managers'][number]>;
  const host = defineHost({
    managers: [m.Team, m.Agent, m.Customer, m.Ticket, m.Comment],
    tools: [tools['assignTicket'] as Tool],
    seed: [
      { manager: 'Team', rows: [{ id: 1, name: 'Billing' }, { id: 2, name: 'Hardware' }] },
      {
        manager: 'Agent',
        rows: [
          { id: 1, login: 'maya', fullName: 'Maya Costa', team: 1 },
          { id: 2, login: 'omar', fullName: 'Omar Haddad', team: 2 },
          { id: 3, login: 'ines', fullName: 'Inês Prado', team: 1 },
        ],
      },
      {
        manager: 'Customer',
        rows: [
          { id: 1, login: 'lena', fullName: 'Lena Berg', email: 'lena@example.com', company: 'Nordlicht GmbH' },
          { id: 2, login: 'tom', fullName: 'Tom Okafor', email: 'tom@example.com', company: null },
        ],
      },
      {
        manager: 'Ticket',
        rows: [
          { id: 1001, subject: 'Charged twice for November', status: 'open', priority: 'urgent', openedAt: '2026-11-20T09:12:00Z', customer: 1, team: 1, assignee: 1 },
          { id: 1002, subject: 'Invoice address is wrong', status: 'open', priority: 'normal', openedAt: '2026-11-22T14:03:00Z', customer: 2, team: 1, assignee: null },
          { id: 1003, subject: 'Printer prints blank pages', status: 'pending', priority: 'normal', openedAt: '2026-11-23T08:40:00Z', customer: 1, team: 2, assignee: 2 },
          { id: 1004, subject: 'Refund for a returned dock', status: 'solved', priority: 'low', openedAt: '2026-11-10T16:25:00Z', customer: 2, team: 1, assignee: 3 },
          { id: 1005, subject: 'Laptop does not charge', status: 'open', priority: 'urgent', openedAt: '2026-11-28T11:00:00Z', customer: 2, team: 2, assignee: null },
        ],
      },
      {
        manager: 'Comment',
        rows: [
          { id: 1, ticket: 1001, authorLogin: 'lena', body: 'I was charged 49.00 twice on 19 November.', internal: false, createdAt: '2026-11-20T09:12:00Z' },
          { id: 2, ticket: 1001, authorLogin: 'maya', body: 'Payment provider confirms a duplicate; refund on Monday.', internal: true, createdAt: '2026-11-20T10:30:00Z' },
          { id: 3, ticket: 1003, authorLogin: 'omar', body: 'Sent a new fuser unit.', internal: false, createdAt: '2026-11-24T09:00:00Z' },
        ],
      },
    ],
  });
  return { host, vocabulary: read('vocabulary.yaml'), remove: copied.remove };
}

/** The app `plumb init` writes: warehouses and their items, its seed and its restock tool. */
export async function templateHost(): Promise<{ host: HostDefinition; remove: () => void }> {
  const files = Object.fromEntries(Object.entries(appFiles).filter(([name]) => name.startsWith('app/') && name.endsWith('.ts')));
  const copied = await importCopied(files, ['app/index.ts']);
  return { host: copied.modules[0]?.['default'] as HostDefinition, remove: copied.remove };
}

/** Opens a host on SQLite in memory, seeded. */
export function openInMemory(host: HostDefinition): Promise<OpenedApp> {
  return openHostApp({ host, database: ':memory:' });
}
