import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../data/index.js';
import { createDemoApp } from '../demo/index.js';
import { createAppReader } from './index.js';

describe('the host vocabulary\'s data words', () => {
  let app: App;
  beforeEach(async () => {
    app = await createDemoApp({ path: ':memory:' });
  });
  afterEach(async () => {
    await app.close();
  });
  const reader = (vocabulary: string) => createAppReader({ app, hostTools: [], vocabulary, secret: 'x'.repeat(40) });

  it('refuses at start a manager or field the app does not expose, naming the key and what there is', async () => {
    await expect(reader('languages:\n  en:\n    data:\n      managers: { Invoice: [invoices] }\n')).rejects.toMatchObject({
      code: 'router_invalid_vocabulary',
      message: expect.stringMatching(/^The vocabulary names data the app does not expose: languages\.en\.data\.managers: 'Invoice' is not a manager the assistant can see \(managers: Material, Order, OrderLine, Part, Project, Task\)\.$/),
    });
    // Customer exists, but chat does not see it: naming it is the same mistake.
    await expect(reader("languages:\n  pt-BR:\n    data:\n      fields: { 'Customer.city': [cidade] }\n      values: { 'Part.colour': { red: [vermelho] } }\n")).rejects.toMatchObject({
      message: expect.stringMatching(/languages\.pt-BR\.data\.fields: 'Customer\.city' names 'Customer', which is not a manager.*; languages\.pt-BR\.data\.values: 'Part\.colour': Part has no field 'colour' \(fields: id, name, sku, unitPrice, stock\)/),
    });
  });

  it('takes words for what the app exposes', async () => {
    const built = await reader("languages:\n  en:\n    data:\n      managers: { Part: [components] }\n      fields: { 'Part.sku': [code] }\n");
    expect(built.router().catalogueVersion).toMatch(/.+/);
  });
});
