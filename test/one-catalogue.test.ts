import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb } from './support/cli.js';
import { tempDir, writeFileIn } from './support/temp.js';

/**
 * One catalogue, read by the router, `search_managers` and the planner: a small app whose only word
 * for its Widget manager besides "widget" is the catalogue's alias "gizmo", given as a mapping and
 * as a function, through the CLI.
 */
const managers = `
const open = { read: () => true };
const Widget = defineManager({ name: 'Widget', description: 'Things we sell.', fields: { name: 'string', colour: 'string' }, chatExposed: true, permissions: open });
const Supplier = defineManager({ name: 'Supplier', description: 'Who delivers to us.', fields: { name: 'string' }, chatExposed: true, permissions: open });
const seed = [{ manager: 'Widget', rows: [{ name: 'Sprocket', colour: 'blue' }, { name: 'Flange', colour: 'red' }] }, { manager: 'Supplier', rows: [{ name: 'Acme' }] }];
`;
const host = (catalog: string): string => `import { defineHost, defineManager } from 'plumb-agent';\n${managers}\nexport default defineHost({ managers: [Widget, Supplier], seed${catalog === '' ? '' : `, catalog: ${catalog}`} });\n`;
const mapping = "{ Widget: { aliases: ['gizmo'], domain: 'inventory', useWhen: 'the question is about goods on the shelf', distinguishFrom: ['Supplier'] } }";
const callable = "(manager) => (manager.name === 'Widget' ? { aliases: ['doohickey'], domain: 'stock' } : undefined)";

const plan = JSON.stringify({ intent: 'read', tasks: [{ id: 't1', goal: 'the blue gizmos', managers: ['Widget'] }] });
const scripts = {
  // The planner answers only when its prompt shows the catalogue entry; without it, no completion matches.
  planner: { loop: true, completions: [{ when: { anyMessageContains: '- Widget: Things we sell. (also called gizmo; domain: inventory; use when the question is about goods on the shelf; not to be confused with Supplier)' }, text: plan }] },
  executor: {
    loop: true,
    completions: [
      { when: { toolName: 'query' }, text: 'Read the blue widgets.' },
      { toolCalls: [{ name: 'query', arguments: { manager: 'Widget', filters: { colour: 'blue' }, fields: ['name'] } }] },
    ],
  },
  synthesizer: { loop: true, completions: [{ text: JSON.stringify({ answer: 'The blue gizmo is Sprocket.', evidence: ['e1'] }) }] },
  fallback: { loop: true, completions: [{ text: 'no plan' }] },
  plain: { loop: true, completions: [{ text: 'The plain tool loop answered.' }] },
};

describe('one catalogue through the CLI', () => {
  const dir = tempDir('plumb-catalogue-');
  const write = (name: string, text: string): string => writeFileIn(dir.path, name, text);
  const config = (name: string, app: string, extra: Record<string, unknown> = {}): string => write(`${name}/plumb.config.json`, JSON.stringify({ app: `../${app}`, database: ':memory:', ...extra }));
  beforeAll(() => {
    write('mapped.ts', host(mapping));
    write('computed.ts', host(callable));
    write('plain.ts', host(''));
    write('unknown.ts', host("{ Gadget: { aliases: ['gizmo'] } }"));
    write('typed.ts', host("{ Widget: { aliases: 'gizmo', usewhen: 'shelves' } }"));
    // Not through defineHost, which would throw on import: the shape is then checked where the app is loaded.
    write('listed.ts', host("['Widget']").replace('export default defineHost(', 'export default ('));
    for (const [role, script] of Object.entries(scripts)) write(`${role}.json`, JSON.stringify(script));
  });
  afterAll(() => dir.remove());

  it('reads a question that names a manager only by its catalogue alias; without the catalogue it is not read', async () => {
    const read = await plumb('ask', 'which gizmos are blue?', '--config', config('mapped', 'mapped.ts'));
    expect(read.code).toBe(0);
    expect(read.stderr).toContain('query_widget');
    expect(read.stdout).toContain('Sprocket');
    expect(read.stdout).not.toContain('Flange');
    const unread = await plumb('ask', 'which gizmos are blue?', '--config', config('plain', 'plain.ts'));
    expect(unread.code).toBe(3);
    expect(unread.stderr).not.toContain('query_widget');
  });

  it('finds the manager by its alias in search_managers, and returns the catalogue entry', async () => {
    const found = await plumb('tool', 'search_managers', '{"query":"gizmos"}', '--config', config('mapped', 'mapped.ts'), '--json');
    expect(found.code).toBe(0);
    const entries = JSON.parse(found.stdout) as { manager: string; catalog?: unknown }[];
    expect(entries.map((entry) => entry.manager)).toEqual(['Widget']);
    expect(entries[0]!.catalog).toEqual({ aliases: ['gizmo'], distinguishFrom: ['Supplier'], domain: 'inventory', useWhen: 'the question is about goods on the shelf' });
  });

  it('shows the catalogue entry to the planner of a planned read', async () => {
    const profile = (role: string): Record<string, unknown> => ({ provider: `scripted:${join(dir.path, `${role}.json`)}`, trustGroup: 'local' });
    const planned = config('planned', 'mapped.ts', {
      provider: `scripted:${join(dir.path, 'plain.json')}`,
      providerProfiles: { planner: profile('planner'), executor: profile('executor'), synthesizer: profile('synthesizer'), fallback: profile('fallback') },
      planned: { enabled: true, roles: { planner: 'planner', simpleExecutor: 'executor', complexExecutor: 'executor', synthesizer: 'synthesizer', fallback: 'fallback' } },
    });
    const answered = await plumb('ask', 'tell me about the blue gizmos', '--config', planned, '--router', 'off');
    expect(answered.stdout).toContain('The blue gizmo is Sprocket.');
    expect(answered.code).toBe(0);
  });

  it('takes the catalogue from a function: the router reads its alias and search_managers finds it', async () => {
    const computed = config('computed', 'computed.ts');
    const read = await plumb('ask', 'which doohickeys are red?', '--config', computed);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('Flange');
    const found = await plumb('tool', 'search_managers', '{"query":"doohickey"}', '--config', computed, '--json');
    expect((JSON.parse(found.stdout) as { manager: string; catalog?: unknown }[])[0]).toMatchObject({ manager: 'Widget', catalog: { aliases: ['doohickey'], domain: 'stock' } });
  });

  it('refuses a catalogue entry for an unknown manager, a badly typed one and a catalogue that is neither form, in plumb check and on start', async () => {
    const checked = await plumb('check', '--config', config('unknown', 'unknown.ts'), '--json');
    expect(checked.code).toBe(1);
    expect((JSON.parse(checked.stdout) as { problems: { code: string; message: string }[] }).problems).toEqual([
      { code: 'invalid_catalog', message: "Invalid catalog:\n- catalog names 'Gadget', which is not a manager. Managers: Widget, Supplier." },
    ]);
    const started = await plumb('ask', 'hello', '--config', config('typed', 'typed.ts'));
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('invalid_catalog');
    expect(started.stderr).toContain("Widget: unknown catalog key 'usewhen'. Keys: aliases, domain, useWhen, distinguishFrom.");
    expect(started.stderr).toContain("Widget: catalog.aliases is a list of words a person says for the manager, such as ['component', 'item'].");
    const listed = await plumb('check', '--config', config('listed', 'listed.ts'), '--json');
    expect((JSON.parse(listed.stdout) as { problems: { code: string; message: string }[] }).problems[0]).toEqual({
      code: 'invalid_host',
      message: expect.stringContaining("'catalog' is an object keyed by manager name ({ Part: { aliases: ['component'] } }) or a function (manager) => entry | undefined."),
    });
  });
});
