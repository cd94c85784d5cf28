/**
 * The files `plumb init` writes: a small host app unlike the demo (warehouses and their items),
 * with two related managers and row permissions, one host tool that writes (confirmed), a seed,
 * a bearer-token `authenticate`, and the configuration that names them. Everything it imports
 * comes from the package (`plumb-agent`).
 */
export interface InitOptions {
  /** The project's name (package.json). */
  readonly name: string;
  /** The package's name and version range, the dependency of a new package.json. */
  readonly plumbPackage: string;
  readonly plumbVersion: string;
}

export const appFiles: Readonly<Record<string, string>> = {
  'plumb.config.ts': `import { defineConfig } from 'plumb-agent';

/** Every setting and its default: docs/configuration.md. */
export default defineConfig({
  // The host's definition: managers, tools, seed (app/index.ts).
  app: './app/index.ts',
  // SQLite by default; set DATABASE_URL (here or in .env) to postgres://… for PostgreSQL.
  database: '\${DATABASE_URL:-sqlite:.plumb/app.sqlite}',
  // Who is asking over HTTP: a bearer token (app/authenticate.ts).
  authenticate: './app/authenticate.ts',
  // --as NAME on the command line; the console's sign-in while consoleSignIn is on.
  actors: {
    ada: { id: 'ada', roles: ['admin'], displayName: 'Ada (admin)' },
    ben: { id: 'ben', roles: ['staff'], displayName: 'Ben (keeps the Porto warehouse)' },
  },
  // Development only: anyone who reaches the console may sign in as the actors above.
  consoleSignIn: true,
  // For real users, a stable secret of 32+ characters (it signs cookies and sessions):
  // sessionSecret: '\${PLUMB_SESSION_SECRET}',
});
`,
  'app/index.ts': `import { defineHost } from 'plumb-agent';
import { Item, Warehouse } from './managers';
import { seed } from './seed';
import { restockItem } from './tools';

/** What Plumb may see and do in this app. */
export default defineHost({
  managers: [Warehouse, Item],
  tools: [restockItem],
  seed,
  examples: ['list the warehouses', 'how many items are there?', 'restock item 3 with 20 units'],
});
`,
  'app/managers.ts': `import { defineManager, hasRole, isAuthenticated } from 'plumb-agent';
import type { Actor } from 'plumb-agent';

const isAdmin = (actor: Actor): boolean => hasRole(actor, 'admin');

/** Warehouses are public; admins change them. */
export const Warehouse = defineManager({
  name: 'Warehouse',
  description: 'A warehouse where items are stored, with its city and the user who keeps it.',
  fields: {
    name: { type: 'string' },
    city: { type: 'string' },
    keeper: { type: 'string', nullable: true, description: 'User id of the person who keeps the warehouse.' },
  },
  chatExposed: true,
  permissions: { read: () => true, create: isAdmin, update: isAdmin, delete: isAdmin },
});

/**
 * Items: an admin sees every item, a keeper the items of the warehouse they keep, and anonymous
 * visitors none. The same rule holds for lists, counts, relations and the chat's tools.
 */
export const Item = defineManager({
  name: 'Item',
  description: 'A stocked item: its name, SKU, unit price and the quantity on hand in its warehouse.',
  fields: {
    name: { type: 'string' },
    sku: { type: 'string', description: 'Stock-keeping unit code.' },
    price: { type: 'decimal', description: 'Price of one unit.' },
    quantity: { type: 'integer', default: 0, description: 'Units on hand.' },
  },
  relations: {
    warehouse: { kind: 'one', target: 'Warehouse', reverse: 'items' },
  },
  chatExposed: true,
  permissions: {
    read: (actor) => (isAdmin(actor) ? true : isAuthenticated(actor) ? { warehouse__keeper: actor.id } : false),
    create: isAdmin,
    // A row someone may not read is not found for them, so a keeper changes only their own items.
    update: (actor) => isAdmin(actor) || hasRole(actor, 'staff'),
    delete: isAdmin,
  },
});
`,
  'app/tools.ts': `import { defineTool, toolError, z } from 'plumb-agent';

const update = \`mutation Restock($id: ID!, $input: ItemUpdateInput!) {
  updateItem(id: $id, input: $input) { id name quantity }
}\`;

/**
 * A write the assistant may plan but never runs on its own: a person confirms it first, and it
 * runs as that person, so an item they may not see or change is refused.
 */
export const restockItem = defineTool({
  name: 'restock_item',
  description: 'Add units to the quantity on hand of one item.',
  input: z.object({
    item_id: z.string().regex(/^[0-9]+$/).describe('The id of the item, digits only, such as "3".'),
    quantity: z.number().int().min(1).max(10000).describe('How many units arrived.'),
  }),
  effect: 'write',
  handler: async (args, ctx) => {
    if (ctx.app === undefined) throw new Error('restock_item runs inside a Plumb app');
    const found = await ctx.app.graphql({ actor: ctx.actor, document: 'query Item($id: ID!) { item(id: $id) { id quantity } }', variables: { id: args.item_id }, signal: ctx.signal });
    const item = (found.data as { item: { id: string; quantity: number } | null } | undefined)?.item;
    if (item === null || item === undefined) throw toolError('invalid_arguments', \`No item \${args.item_id} that you can see.\`);
    const result = await ctx.app.graphql({ actor: ctx.actor, document: update, variables: { id: item.id, input: { quantity: item.quantity + args.quantity } }, signal: ctx.signal });
    if (result.errors !== undefined && result.errors.length > 0) throw toolError('forbidden', result.errors[0]!.message);
    return (result.data as { updateItem: unknown }).updateItem;
  },
});
`,
  'app/seed.ts': `import type { SeedBatch } from 'plumb-agent';

/** Rows loaded into a new database (every table empty): development data. */
export const seed: SeedBatch[] = [
  {
    manager: 'Warehouse',
    rows: [
      { id: 1, name: 'Lisbon Central', city: 'Lisbon', keeper: 'ada' },
      { id: 2, name: 'Porto Docks', city: 'Porto', keeper: 'ben' },
    ],
  },
  {
    manager: 'Item',
    rows: [
      { id: 1, name: 'Pallet jack', sku: 'PJ-01', price: '349.00', quantity: 4, warehouse: 1 },
      { id: 2, name: 'Shrink wrap', sku: 'SW-20', price: '18.50', quantity: 120, warehouse: 1 },
      { id: 3, name: 'Cardboard box', sku: 'CB-40', price: '0.90', quantity: 800, warehouse: 2 },
      { id: 4, name: 'Packing tape', sku: 'PT-05', price: '2.40', quantity: 60, warehouse: 2 },
      { id: 5, name: 'Label printer', sku: 'LP-77', price: '129.00', quantity: 2, warehouse: 2 },
    ],
  },
];
`,
  'app/authenticate.ts': `import { PlumbError } from 'plumb-agent';
import type { AuthRequest, AuthResult } from 'plumb-agent';

/**
 * API clients send \`Authorization: Bearer <token>\`. These development tokens stand for the
 * configuration's actors; a real app checks its own tokens or sessions here. A token is a
 * credential no cross-site page can make the browser send, so CSRF does not apply to it.
 */
const tokens: Record<string, { id: string; roles: string[] }> = {
  'ada-dev-token': { id: 'ada', roles: ['admin'] },
  'ben-dev-token': { id: 'ben', roles: ['staff'] },
};

export function authenticate(request: AuthRequest): AuthResult {
  const header = request.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return null;
  const token = /^Bearer (.+)$/i.exec(value)?.[1];
  const user = token === undefined ? undefined : tokens[token];
  if (user === undefined) throw new PlumbError('unauthenticated', 'Unknown bearer token.');
  return { actor: { kind: 'user', id: user.id, roles: user.roles }, credential: 'token' };
}
`,
  'tsconfig.json': `{
  "compilerOptions": {
    "target": "ES2023",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true
  },
  "include": ["plumb.config.ts", "app", "migrations"]
}
`,
  '.gitignore': `node_modules/
.plumb/
.env
`,
  'README.md': `# A Plumb app

\`npm start\` serves it on http://127.0.0.1:8787 (the console at /console/), with no model: Plumb's
router reads each question and answers from the rows. Sign in as \`ada\` (admin) or \`ben\` (keeps
the Porto warehouse) at the console's top right: each sees only the items they may see.

- \`app/managers.ts\`: the tables and who may read and change which rows.
- \`app/tools.ts\`: a tool that writes, always confirmed by a person.
- \`app/seed.ts\`: the rows a new database starts with.
- \`plumb.config.ts\`: the database, users, allowed writes, a model (every setting: Plumb's docs/configuration.md).

Change a manager, then \`npx plumb migrate generate\` and \`npx plumb migrate up\`.
\`npx plumb check\` loads everything and names what is wrong.
`,
};

export function packageJson(options: InitOptions): string {
  return `${JSON.stringify(
    {
      name: options.name,
      private: true,
      type: 'module',
      scripts: scripts,
      dependencies: { [options.plumbPackage]: options.plumbVersion },
    },
    null,
    2,
  )}\n`;
}

/** The scripts `plumb init` adds to a package.json (never replacing one that is there). */
export const scripts: Readonly<Record<string, string>> = {
  start: 'plumb serve',
  check: 'plumb check',
  migrate: 'plumb migrate',
};
