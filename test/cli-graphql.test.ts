import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb } from './support/cli.js';
import { tempDir } from './support/temp.js';

describe('plumb graphql', () => {
  const dir = tempDir();
  const db = join(dir.path, 'demo.sqlite');
  beforeAll(async () => {
    // The first run creates and seeds the demo file; the others reuse it.
    expect((await plumb('graphql', '{ materialList { pageInfo { totalCount } } }', '--demo', '--db', db)).code).toBe(0);
  });
  afterAll(() => dir.remove());

  it('prints orders 4411 and 4412 with totalCount 2 for alice (the README example)', async () => {
    const run = await plumb(
      'graphql',
      '{ orderList(filter: {id__in: [4411, 4412]}) { items { id total } pageInfo { totalCount } } }',
      '--demo', '--db', db, '--as', 'alice',
    );
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.errors).toBeUndefined();
    expect(result.data.orderList.pageInfo.totalCount).toBe(2);
    expect(result.data.orderList.items).toEqual([
      { id: '4411', total: '74.00' },
      { id: '4412', total: '121.00' },
    ]);
  });

  it('hides orders from anonymous visitors and says why on exit 1', async () => {
    const run = await plumb('graphql', '{ orderList { pageInfo { totalCount } } }', '--demo', '--db', db);
    const result = JSON.parse(run.stdout);
    expect(result.data?.orderList?.pageInfo.totalCount ?? 0).toBe(0);
  });

  it('takes variables as JSON', async () => {
    const run = await plumb(
      'graphql',
      'query ($name: String) { materialList(filter: { name: $name }) { items { name density } } }',
      '--variables', '{"name":"Cobalt"}', '--demo', '--db', db,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).data.materialList.items).toEqual([{ name: 'Cobalt', density: 8.9 }]);
  });

  it('exits 1 and prints the errors for a malformed document', async () => {
    const run = await plumb('graphql', '{ materialList { items { name }', '--demo', '--db', db);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).errors[0].message).toMatch(/Syntax Error/);
    expect(run.stderr).toMatch(/^plumb: the result has 1 error/);
  });

  it.each([
    [['graphql'], /missing required argument 'document'/],
    [['graphql', '{ a }', '--demo', '--db', ':memory:', '--as', 'mallory'], /unknown actor 'mallory' for --as; choose one of anonymous, alice, bob/],
    [['graphql', '{ a }', '--demo', '--db', ':memory:', '--variables', '{nope'], /--variables is not valid JSON/],
    [['graphql', '{ a }', '--demo', '--db', ':memory:', '--variables', '[1]'], /--variables must be a JSON object/],
    [['graphql', '{ a }'], /say which app to open/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ])('exits 2 with a one-line reason for %j', async (args, reason) => {
    const run = await plumb(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('has --help', async () => {
    const run = await plumb('graphql', '--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: plumb graphql \[options\] <document>/);
  });
});

describe('plumb graphql --scale', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('seeds a new database with the synthetic shop: 1,000 parts and 10,000 order lines per unit', async () => {
    const db = join(dir.path, 'scaled.sqlite');
    const run = await plumb('graphql', '{ partList(pageSize: 1) { pageInfo { totalCount } } orderLineList(pageSize: 1) { pageInfo { totalCount } } }', '--demo', '--db', db, '--scale', '1', '--as', 'alice');
    expect(run.code).toBe(0);
    const data = JSON.parse(run.stdout).data;
    expect(data.partList.pageInfo.totalCount).toBe(1000);
    expect(data.orderLineList.pageInfo.totalCount).toBe(10_000);
  });

  it.each(['0', '-3', 'lots', '1.5'])('refuses --scale %s with exit 2', async (value) => {
    const run = await plumb('graphql', '{ a }', '--demo', '--db', ':memory:', '--scale', value);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--scale must be an integer from 1 to 1000/);
  });
});
