/**
 * `npm run bench -- tools`: the schema index, discovery tools and dispatcher on a synthetic app of
 * 1,000 exposed managers (10 fields, 3 relations each), and the size in o200k tokens of the tool
 * definitions a model receives under each strategy.
 */
import os from 'node:os';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { z } from 'zod';
import { userActor } from '../src/core/index.js';
import { buildSchemaIndex, createChatTools, createDispatcher, defineTool, findPath, renderTools, searchManagers } from '../src/tools/index.js';
import type { ChatApp, ChatManager } from '../src/tools/index.js';
import type { Benchmark } from './harness.js';
import { machineLine, measure, measureSync, printTable, summarize } from './harness.js';

const words = ['order', 'part', 'material', 'supplier', 'invoice', 'customer', 'shipment', 'project', 'task', 'payment', 'warehouse', 'batch', 'contract', 'employee', 'vehicle', 'route', 'ticket', 'asset', 'budget', 'review'];
const kinds = ['Line', 'Item', 'Log', 'Note', 'Plan', 'Record', 'Entry', 'Event', 'Report', 'Type'];
const fieldTypes = ['string', 'integer', 'decimal', 'date', 'datetime', 'boolean', 'enum', 'float', 'text'];

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A deterministic synthetic schema: every manager exposed, 10 fields and 3 `one` relations each. */
export function syntheticManagers(count: number): ChatManager[] {
  const name = (i: number): string => `${capital(words[i % words.length]!)}${kinds[Math.floor(i / words.length) % kinds.length]!}${i >= 200 ? String(Math.floor(i / 200)) : ''}`;
  return Array.from({ length: count }, (_, i) => ({
    name: name(i),
    description: `Synthetic ${words[i % words.length]!} records, number ${i}.`,
    chatExposed: true,
    fields: [
      { name: 'id', type: 'integer', primaryKey: true },
      ...fieldTypes.map((type, k) => ({ name: `${words[(i + k) % words.length]!}${capital(type)}`, type })),
    ],
    relations: [1, 7, 31].map((step, k) => ({
      name: `link${k}${capital(words[(i + step) % words.length]!)}`,
      target: name((i + step) % count),
      kind: 'one' as const,
      reverseName: `back${k}${name(i)}`,
    })),
  }));
}

const noGraphql: ChatApp['graphql'] = () => Promise.resolve({ data: null });

const benchmark: Benchmark = {
  name: 'tools',
  async run() {
    console.log(`tools benchmark · ${machineLine()} · load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}`);
    const managers = syntheticManagers(1000);

    const build = measureSync(30, () => buildSchemaIndex(managers), 3);
    const index = buildSchemaIndex(managers);
    const queries = ['order', 'customers invoices', 'payment plan', 'warehouse batch entry', 'supplier contract 3', 'shipment', 'routes', 'zebra', 'part material', 'review report'];
    const search = measureSync(5000, (i) => searchManagers(index, queries[i % queries.length]!));
    const names = index.entries.map((entry) => entry.manager);
    const path = measureSync(5000, (i) => findPath(index, names[(i * 37) % names.length]!, names[(i * 101 + 13) % names.length]!));

    const echo = defineTool({ name: 'echo', description: 'Echo.', input: z.object({ text: z.string() }), effect: 'read', handler: (args) => ({ text: args.text }) });
    const dispatcher = createDispatcher({ tools: [echo] });
    const actor = userActor('bench');
    const call = { name: 'echo', arguments: { text: 'hello' } };
    const direct = await measure(100_000, () => Promise.resolve(echo.handler({ text: 'hello' }, undefined as never)), 5000);
    const dispatched = await measure(100_000, () => dispatcher.dispatch(call, { actor }), 5000);
    const asText = await measure(100_000, () => dispatcher.dispatch({ name: 'echo', arguments: '{"text":"hello"}' }, { actor }), 5000);

    const us = (ms: number): number => ms * 1000;
    const b = summarize(build);
    const s = summarize(search);
    const p = summarize(path);
    printTable('Schema index and discovery (1,000 managers)', ['measure', 'median', 'p99', 'min', 'target'], [
      ['index build (ms)', b.median, b.p99, b.min, '≤ 200 ms'],
      ['search_managers (µs)', us(s.median), us(s.p99), us(s.min), '≤ 1 ms median'],
      ['find_path (µs)', us(p.median), us(p.p99), us(p.min), '≤ 1 ms median'],
    ]);
    const d = summarize(dispatched);
    const t = summarize(asText);
    const h = summarize(direct);
    printTable('Dispatcher overhead, trivial read tool (µs per call)', ['path', 'median', 'p99', 'overhead vs handler (median)'], [
      ['handler alone (awaited)', us(h.median), us(h.p99), '—'],
      ['dispatch, object arguments', us(d.median), us(d.p99), us(d.median - h.median)],
      ['dispatch, JSON text arguments', us(t.median), us(t.p99), us(t.median - h.median)],
    ]);

    const rows: (string | number)[][] = [];
    for (const count of [10, 100, 1000]) {
      const app: ChatApp = { managers: syntheticManagers(count), graphql: noGraphql };
      const discovery = JSON.stringify(renderTools(createChatTools(app, { toolStrategy: 'discovery' }).tools));
      const directTools = JSON.stringify(renderTools(createChatTools(app, { toolStrategy: 'direct' }).tools));
      rows.push([String(count), String(countTokens(discovery)), String(countTokens(directTools))]);
    }
    printTable('Tool definitions a model receives (o200k tokens)', ['managers', 'discovery', 'direct'], rows);
  },
};

export default benchmark;
