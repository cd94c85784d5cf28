import { describe, expect, it } from 'vitest';
import { isPlumbError } from '../core/index.js';
import { defineApp, defineManager, sqlite } from './index.js';
import type { ManagerSpec } from './index.js';

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (isPlumbError(error) && error.code === 'invalid_definition') return error.details?.problems as string[];
    throw error;
  }
  throw new Error('expected invalid_definition');
}

const appProblems = (managers: readonly ManagerSpec[]): string[] => problemsOf(() => defineApp({ managers, database: sqlite({ path: ':memory:' }) }));

describe('defineManager', () => {
  it('returns the declaration frozen', () => {
    const spec = defineManager({ name: 'Part', fields: { name: 'string' } });
    expect(Object.isFrozen(spec)).toBe(true);
    expect(Object.isFrozen(spec.fields)).toBe(true);
  });

  it('lists every problem of a declaration at once', () => {
    const problems = problemsOf(() =>
      defineManager({
        name: 'part',
        fields: {
          colour_name: 'string',
          status: { type: 'enum', values: [] },
          price: { type: 'decimal', default: 'cheap' },
          size: { type: 'shoe' as never },
          in: 'string',
          stock: { type: 'integer', default: null },
        },
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/'part'.*PascalCase/),
        expect.stringMatching(/colour_name.*camelCase/),
        expect.stringMatching(/status: an enum needs a non-empty 'values' list/),
        expect.stringMatching(/price: bad default: expected a decimal/),
        expect.stringMatching(/size: unknown field type 'shoe'/),
        expect.stringMatching(/in: 'in' is reserved/),
        expect.stringMatching(/stock: default null needs nullable: true/),
      ]),
    );
    expect(problems).toHaveLength(7);
  });

  it('refuses a field and a relation with the same name', () => {
    const problems = problemsOf(() => defineManager({ name: 'Part', fields: { material: 'string' }, relations: { material: { kind: 'one', target: 'Material' } } }));
    expect(problems).toEqual([expect.stringMatching(/duplicate name/)]);
  });

  it('takes a declared id of type integer or string only', () => {
    expect(problemsOf(() => defineManager({ name: 'Part', fields: { id: 'float' } }))).toEqual([expect.stringMatching(/a declared 'id' is the primary key: its type is integer .* or string/)]);
    expect(() => defineManager({ name: "Part", fields: { id: { type: "string", column: "code" } } })).not.toThrow();
  });
});

describe('defineApp', () => {
  const material = defineManager({ name: 'Material', fields: { name: 'string' } });

  it('reports unknown relation targets naming the known managers', () => {
    const problems = appProblems([material, { name: 'Part', fields: {}, relations: { maker: { kind: 'one', target: 'Maker' } } }]);
    expect(problems).toEqual([expect.stringMatching(/Part\.maker: unknown relation target 'Maker'\. Managers: Material, Part/)]);
  });

  it('checks catalogue metadata: its keys and types, and that distinguishFrom names managers of the app', async () => {
    expect(problemsOf(() => defineManager({ name: 'Part', fields: {}, catalog: { domain: '', useWhen: 3, distinguishFrom: ['material'], aliases: ['component', ' '], synonyms: [] } as never }))).toEqual([
      "Part: unknown catalog key 'synonyms'. Keys: aliases, domain, useWhen, distinguishFrom.",
      "Part: catalog.aliases is a list of words a person says for the manager, such as ['component', 'item'].",
      'Part: catalog.domain is a non-empty string.',
      'Part: catalog.useWhen is a non-empty string.',
      "Part: catalog.distinguishFrom is a list of manager names, such as ['OrderLine'].",
    ]);
    const part = defineManager({ name: 'Part', fields: {}, catalog: { domain: 'manufacturing', distinguishFrom: ['Material', 'Component'] } });
    expect(appProblems([material, part])).toEqual(["Part: catalog.distinguishFrom names 'Component', which is not a manager. Managers: Material, Part."]);
    const app = defineApp({ managers: [material, defineManager({ name: 'Part', fields: {}, catalog: { useWhen: 'the question is about components', distinguishFrom: ['Material'] } })], database: sqlite({ path: ':memory:' }) });
    expect(app.managers.find((manager) => manager.name === 'Part')?.catalog).toEqual({ useWhen: 'the question is about components', distinguishFrom: ['Material'] });
    await app.close();
  });

  it('reports duplicate managers and shared tables', () => {
    const problems = appProblems([material, material, { name: 'Stuff', table: 'material', fields: {} }]);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/Duplicate manager name 'Material'/), expect.stringMatching(/share table 'material'/)]));
  });

  it('reports a derived reverse name that collides with a field of the target', () => {
    const problems = appProblems([
      defineManager({ name: 'Material', fields: { parts: 'integer' } }),
      defineManager({ name: 'Part', fields: {}, relations: { material: { kind: 'one', target: 'Material' } } }),
    ]);
    expect(problems).toEqual([expect.stringMatching(/Part\.material: its reverse name 'parts' collides with a field or relation of Material; set 'reverse'/)]);
  });

  it('reports reserved manager names and generated-name clashes', () => {
    const problems = appProblems([{ name: 'Query', fields: {} }]);
    expect(problems).toEqual([expect.stringMatching(/reserved/)]);
    const clash = appProblems([defineManager({ name: 'Part', fields: {} }), defineManager({ name: 'PartPage', fields: {} })]);
    expect(clash).toEqual([expect.stringMatching(/both generate the GraphQL type 'PartPage'/)]);
  });

  it('reports a many relation whose via is not a one relation back', () => {
    const problems = appProblems([
      defineManager({ name: 'Material', fields: {}, relations: { items: { kind: 'many', target: 'Part', via: 'maker' } } }),
      defineManager({ name: 'Part', fields: {}, relations: { material: { kind: 'one', target: 'Material' } } }),
    ]);
    expect(problems).toEqual([expect.stringMatching(/Material\.items: 'via' must name a one relation on Part/)]);
  });

  it('resolves relations on both sides with derived names', async () => {
    const app = defineApp({
      managers: [
        material,
        defineManager({ name: 'Part', fields: { name: 'string' }, relations: { material: { kind: 'one', target: 'Material' } } }),
        defineManager({ name: 'Project', fields: {}, relations: { parts: { kind: 'manyToMany', target: 'Part' } } }),
      ],
      database: sqlite({ path: ':memory:' }),
    });
    const part = app.manager('Part')!;
    expect(part.fields.map((field) => field.name)).toEqual(['id', 'name']);
    expect(part.relations.map((relation) => [relation.name, relation.kind, relation.target.name, relation.declared])).toEqual([
      ['material', 'one', 'Material', true],
      ['projects', 'manyToMany', 'Project', false],
    ]);
    expect(app.manager('Material')!.relation('parts')).toMatchObject({ kind: 'many', reverseName: 'material', column: 'material_id' });
    expect(app.manager('Project')!.relation('parts')).toMatchObject({ through: 'project_parts', sourceColumn: 'project_id', targetColumn: 'part_id' });
    expect(part.chatExposed).toBe(false);
    await app.close();
  });

  it('uses a declared many relation as the reverse of its one', async () => {
    const app = defineApp({
      managers: [
        defineManager({ name: 'Order', fields: {}, relations: { lines: { kind: 'many', target: 'OrderLine', via: 'order', description: 'Its lines.' } } }),
        defineManager({ name: 'OrderLine', fields: {}, relations: { order: { kind: 'one', target: 'Order' } } }),
      ],
      database: sqlite({ path: ':memory:' }),
    });
    expect(app.manager('Order')!.relations.map((relation) => relation.name)).toEqual(['lines']);
    expect(app.manager('OrderLine')!.relation('order')!.reverseName).toBe('lines');
    await app.close();
  });

  it('parses settings with defaults and refuses unknown keys', async () => {
    const app = defineApp({ managers: [material], database: sqlite({ path: ':memory:' }) });
    expect(app.settings.maxPageSize).toBe(200);
    expect(Object.isFrozen(app.settings)).toBe(true);
    await app.close();
    expect(() => defineApp({ managers: [material], database: sqlite({ path: ':memory:' }), settings: { maxPagesize: 5 } as never })).toThrow(
      expect.objectContaining({ code: 'invalid_settings' }),
    );
  });
});
