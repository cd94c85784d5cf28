import { describe, expect, it } from 'vitest';
import { renderAnswer } from './index.js';
import { item, oneStep, plan, ptLabel } from './test-plans.js';

const steel = { fields: ['id', 'name', 'sku'], filters: { material__name: 'Steel' } };
const twoParts = { data: [{ id: '1', name: 'Bolt M6', sku: 'B-6' }, { id: '2', name: 'Hex nut', sku: 'N-2' }], total_count: 2, has_more: false };

function materials(count: number): { id: string; name: string; density: string }[] {
  return Array.from({ length: count }, (_, i) => ({ id: String(i + 1), name: `Alloy ${i + 1}`, density: `${i + 1}.50` }));
}

describe('rows of a read', () => {
  it('lists a few rows under their type and filters, each led by its name (en)', () => {
    expect(oneStep('en', 'which parts are made of steel?', 'query_part', steel, twoParts)).toBe(['2 parts where material name is Steel:', '- Bolt M6 — sku: B-6', '- Hex nut — sku: N-2'].join('\n'));
  });

  it('lists a few rows under their type and filters, each led by its name (pt-BR)', () => {
    expect(oneStep('pt-BR', 'quais peças são de aço?', 'query_part', steel, twoParts)).toBe(['2 peças com material name Steel:', '- Bolt M6 — sku: B-6', '- Hex nut — sku: N-2'].join('\n'));
  });

  it('derives the row type from the tool name when no label is given, and leads with the id where a row has no name', () => {
    const one = { data: [{ id: '7', name: 'Washer' }], total_count: 1, has_more: false };
    expect(oneStep('en', 'show the washer', 'query_part', { fields: ['id', 'name'] }, one, {}, undefined)).toBe('1 part:\n- Washer');
    expect(oneStep('en', 'show events', 'query_calendar_event', { fields: ['id'] }, { data: [{ id: '1' }, { id: '2' }], total_count: 2, has_more: false }, {}, undefined)).toBe('2 calendar events:\n- 1\n- 2');
  });

  it('writes more than five rows as a compact Markdown table, its columns labelled in words', () => {
    const rows = materials(6).map(({ id, name, density }) => ({ name, density, id }));
    expect(oneStep('en', 'show me all materials', 'query_material', { fields: ['name', 'density', 'id'] }, { data: rows, total_count: 6, has_more: false })).toBe(
      ['6 materials:', '| Name | Density |', '| --- | --- |', '| Alloy 1 | 1.50 |', '| Alloy 2 | 2.50 |', '| Alloy 3 | 3.50 |', '| Alloy 4 | 4.50 |', '| Alloy 5 | 5.50 |', '| Alloy 6 | 6.50 |'].join('\n'),
    );
    const unnamed = [1, 2, 3, 4, 5, 6].map((n) => ({ id: String(4400 + n), status: 'paid', unitPrice: '2.50' }));
    expect(oneStep('en', 'show orders', 'query_order', { fields: ['id'] }, { data: unnamed, total_count: 6, has_more: false }).split('\n').slice(1, 4)).toEqual([
      '| Id | Status | Unit price |',
      '| --- | --- | --- |',
      '| 4401 | paid | 2.50 |',
    ]);
  });

  it('stops at twenty rows and says how many more there are, with the total (en and pt-BR)', () => {
    const page = { data: materials(25), total_count: 42, has_more: true };
    const en = oneStep('en', 'show me all materials', 'query_material', { fields: ['id', 'name', 'density'] }, page);
    const pt = oneStep('pt-BR', 'mostre todos os materiais', 'query_material', { fields: ['id', 'name', 'density'] }, page);
    expect(en.split('\n')[0]).toBe('42 materials:');
    expect(pt.split('\n')[0]).toBe('42 materiais:');
    expect(en.split('\n')).toHaveLength(1 + 2 + 20 + 1);
    expect(en).toContain('| Alloy 20 | 20.50 |');
    expect(pt).toContain('| Alloy 20 | 20,50 |');
    expect(en).not.toContain('Alloy 21');
    expect(en.endsWith('\n… and 22 more (total 42).')).toBe(true);
    expect(pt.endsWith('\n… e mais 22 (total 42).')).toBe(true);
  });

  it('says how many more a short page leaves out', () => {
    const page = { data: materials(2), total_count: 9, has_more: true };
    expect(oneStep('en', 'show materials', 'query_material', { fields: ['id', 'name', 'density'], limit: 2 }, page)).toBe(
      ['9 materials:', '- Alloy 1 — density: 1.50', '- Alloy 2 — density: 2.50', '… and 7 more (total 9).'].join('\n'),
    );
  });

  it('says there are more without a number when the page does not count its rows', () => {
    const page = { data: materials(2), has_more: true };
    expect(oneStep('en', 'show materials', 'query_material', { fields: ['id'] }, page).split('\n').at(-1)).toBe('… and more.');
    expect(oneStep('pt-BR', 'mostre materiais', 'query_material', { fields: ['id'] }, page).split('\n').at(-1)).toBe('… e mais.');
  });

  it('writes numbers, dates and yes/no for the locale, names and codes exactly, and leaves an empty field out of a list', () => {
    const row = { id: '3', name: 'Ação inox', sku: '0042', price: '1274.00', stock: 12000, density: 7.85, placed: '2026-03-02', at: '2026-03-02T10:00:00-03:00', active: true, note: null };
    const args = { fields: ['*'] };
    const page = { data: [row], total_count: 1, has_more: false };
    expect(oneStep('en', 'show part 3', 'query_part', args, page)).toBe(
      '1 part:\n- Ação inox — sku: 0042, price: 1,274.00, stock: 12,000, density: 7.85, placed: Mar 2, 2026, at: Mar 2, 2026, 10:00 UTC-03:00, active: yes',
    );
    expect(oneStep('pt-BR', 'mostre a peça 3', 'query_part', args, page)).toBe(
      '1 peça:\n- Ação inox — sku: 0042, price: 1.274,00, stock: 12.000, density: 7,85, placed: 02/03/2026, at: 02/03/2026, 10:00 UTC-03:00, active: sim',
    );
  });

  it('writes related rows compactly inside a row', () => {
    const row = { id: '1', name: 'Bolt', material: { name: 'Steel' }, suppliers: [{ name: 'Acme', city: 'Recife' }, { name: 'Zeta', city: 'Natal' }] };
    expect(oneStep('en', 'show part 1', 'query_part', { fields: ['id'] }, { data: [row], total_count: 1, has_more: false })).toBe(
      '1 part:\n- Bolt — material: Steel, suppliers: (name: Acme, city: Recife); (name: Zeta, city: Natal)',
    );
  });

  it('escapes a pipe inside a table cell', () => {
    const rows = materials(6).map((r, i) => (i === 0 ? { ...r, name: 'A|B' } : r));
    expect(oneStep('en', 'show materials', 'query_material', { fields: ['id'] }, { data: rows, total_count: 6, has_more: false })).toContain('| A\\|B | 1.50 |');
  });

  it('reads operators in filters as words, and an excluded value as "is not"', () => {
    const args = { fields: ['id', 'name'], filters: { density__gt: 5, name__icontains: 'steel' }, exclude: { name: 'Cast steel' } };
    const page = { data: [{ id: '2', name: 'Stainless steel' }], total_count: 1, has_more: false };
    expect(oneStep('en', 'materials with density above 5', 'query_material', args, page)).toBe('1 material where density above 5, name contains steel, name is not Cast steel:\n- Stainless steel');
    expect(oneStep('pt-BR', 'materiais com densidade acima de 5', 'query_material', args, page)).toBe('1 material com density acima de 5, name contém steel, name diferente de Cast steel:\n- Stainless steel');
    expect(oneStep('en', 'materials not called Cast steel', 'query_material', { fields: ['id'], exclude: { name: 'Cast steel' } }, page).split('\n')[0]).toBe('1 material where name is not Cast steel:');
  });
});

describe('empty results', () => {
  const none = { data: [], total_count: 0, has_more: false };

  it('says plainly that no rows match the filters', () => {
    expect(oneStep('en', 'which parts are made of steel?', 'query_part', steel, none)).toBe('No parts where material name is Steel.');
    expect(oneStep('pt-BR', 'quais peças são de aço?', 'query_part', steel, none)).toBe('Não há peças com material name Steel.');
  });

  it('says plainly that there are none when nothing was filtered', () => {
    expect(oneStep('en', 'show me all materials', 'query_material', { fields: ['id'] }, none)).toBe('No materials found.');
    expect(oneStep('pt-BR', 'mostre todos os materiais', 'query_material', { fields: ['id'] }, none)).toBe('Não há materiais.');
  });

  it('says so for an empty list of another tool, with the arguments it was read with in words', () => {
    const args = { time_min: '2026-12-03T12:00:00-03:00', time_max: '2026-12-03T18:00:00-03:00' };
    expect(oneStep('en', 'what is on my calendar on Thursday afternoon?', 'list_events', args, [])).toBe(
      'No events found (time min: Dec 3, 2026, 12:00 UTC-03:00, time max: Dec 3, 2026, 18:00 UTC-03:00).',
    );
    expect(oneStep('pt-BR', 'o que tenho na agenda quinta à tarde?', 'list_events', args, [])).toBe(
      'Não há eventos (time min: 03/12/2026, 12:00 UTC-03:00, time max: 03/12/2026, 18:00 UTC-03:00).',
    );
  });
});

describe('rows of a host tool', () => {
  it('lists the events of a period with the arguments they were read with', () => {
    const args = { time_min: '2026-12-03T12:00:00-03:00', time_max: '2026-12-03T18:00:00-03:00' };
    const events = [{ id: '5', title: 'Design review', start: '2026-12-03T15:00:00.000Z', end: '2026-12-03T16:00:00.000Z' }];
    expect(oneStep('en', 'what is on my calendar on Thursday afternoon?', 'list_events', args, events)).toBe(
      ['1 event (time min: Dec 3, 2026, 12:00 UTC-03:00, time max: Dec 3, 2026, 18:00 UTC-03:00):', '- Design review — start: Dec 3, 2026, 15:00 UTC, end: Dec 3, 2026, 16:00 UTC'].join('\n'),
    );
  });

  it('renders several read steps in plan order, separated by a blank line', () => {
    const args = { fields: ['id', 'name'] };
    const answer = renderAnswer({
      language: 'en',
      label: ptLabel,
      plan: plan('run', 'en', 'show materials and parts', [item({ tool: 'query_material', arguments: args }), item({ tool: 'query_part', arguments: args })]),
      steps: [
        { kind: 'tool', tool: 'query_material', arguments: args, result: { data: [{ id: '1', name: 'Steel' }], total_count: 1, has_more: false } },
        { kind: 'tool', tool: 'query_part', arguments: args, result: { data: [], total_count: 0, has_more: false } },
      ],
    });
    expect(answer).toBe('1 material:\n- Steel\n\nNo parts found.');
  });
});

describe('arguments and field names in words', () => {
  it('puts the start of a period before its end, however the plan ordered them', () => {
    const args = { time_max: '2026-12-01T18:00:00-03:00', time_min: '2026-12-01T12:00:00-03:00' };
    expect(oneStep('en', 'what is on my calendar tomorrow afternoon', 'list_events', args, [])).toBe(
      'No events found (time min: Dec 1, 2026, 12:00 UTC-03:00, time max: Dec 1, 2026, 18:00 UTC-03:00).',
    );
  });

  it('writes a camelCase lookup as words and a date for the locale', () => {
    const args = { fields: ['id', 'title'], filters: { dueDate__lt: '2026-12-10', project__name: 'Apollo' } };
    expect(oneStep('en', 'tasks of Apollo due before December 10', 'query_task', args, { data: [], total_count: 0, has_more: false })).toBe(
      'No tasks where due date before Dec 10, 2026, project name is Apollo.',
    );
  });
});
