import { describe, expect, it } from 'vitest';
import { renderAnswer } from './index.js';
import { item, oneStep, plan, ptLabel } from './test-plans.js';

const order4411 = {
  order_id: '4411',
  status: 'paid',
  total: '74.00',
  email: 'ana@example.com',
  customer: 'Ana Souza',
  placed_at: '2026-03-02T10:00:00.000Z',
  lines: [
    { part: 'Bolt M6', sku: 'B-6', quantity: 4, unit_price: '3.50' },
    { part: 'Hex nut', sku: 'N-2', quantity: 10, unit_price: '6.00' },
  ],
  paid: '74.00',
  balance: '0.00',
  receipt_sent_to: null,
};

// Field names are written as words, values in the person's locale; identities stay as stored.
const fieldLines = [
  '- order id: 4411',
  '- status: paid',
  '- total: 74.00',
  '- email: ana@example.com',
  '- customer: Ana Souza',
  '- placed at: Mar 2, 2026, 10:00 UTC',
  '- lines: (part: Bolt M6, sku: B-6, quantity: 4, unit price: 3.50); (part: Hex nut, sku: N-2, quantity: 10, unit price: 6.00)',
  '- paid: 74.00',
  '- balance: 0.00',
  '- receipt sent to: —',
];

const ptFieldLines = [
  '- order id: 4411',
  '- status: paid',
  '- total: 74,00',
  '- email: ana@example.com',
  '- customer: Ana Souza',
  '- placed at: 02/03/2026, 10:00 UTC',
  '- lines: (part: Bolt M6, sku: B-6, quantity: 4, unit price: 3,50); (part: Hex nut, sku: N-2, quantity: 10, unit price: 6,00)',
  '- paid: 74,00',
  '- balance: 0,00',
  '- receipt sent to: —',
];

describe('a single record', () => {
  it('writes its fields as "field: value" lines under its type and identity (en)', () => {
    expect(oneStep('en', 'show me order 4411', 'get_order', { order_id: '4411' }, order4411)).toBe(['Order 4411:', ...fieldLines].join('\n'));
  });

  it('writes its fields as "field: value" lines under its type and identity (pt-BR)', () => {
    expect(oneStep('pt-BR', 'mostre o pedido 4411', 'get_order', { order_id: '4411' }, order4411)).toBe(['Pedido 4411:', ...ptFieldLines].join('\n'));
  });

  it('leads with the field the turn asks about (en and pt-BR)', () => {
    expect(oneStep('en', 'what is the total of order 4411?', 'get_order', { order_id: '4411' }, order4411)).toBe(['Order 4411 — total: 74.00', ...fieldLines].join('\n'));
    expect(oneStep('pt-BR', 'qual é o total do pedido 4411?', 'get_order', { order_id: '4411' }, order4411)).toBe(['Pedido 4411 — total: 74,00', ...ptFieldLines].join('\n'));
  });

  it('reads a field named in several words and ignores case and accents', () => {
    expect(oneStep('en', 'When was order 4411 PLACED AT?', 'get_order', { order_id: '4411' }, order4411).split('\n')[0]).toBe('Order 4411 — placed at: Mar 2, 2026, 10:00 UTC');
  });

  it('does not lead with a field the turn only partly names', () => {
    expect(oneStep('en', 'show the totals of order 4411', 'get_order', { order_id: '4411' }, order4411).split('\n')[0]).toBe('Order 4411:');
  });

  it('writes each of several orders as its own record ("show me orders 4411 and 4412")', () => {
    const order4412 = { ...order4411, order_id: '4412', status: 'pending', total: '120.50', paid: '0.00', balance: '120.50' };
    const answer = renderAnswer({
      language: 'en',
      label: ptLabel,
      plan: plan('run', 'en', 'show me orders 4411 and 4412', [
        item({ tool: 'get_order', arguments: { order_id: '4411' }, decidedBy: 'M1 each order_id' }),
        item({ tool: 'get_order', arguments: { order_id: '4412' }, decidedBy: 'M1 each order_id' }),
      ]),
      steps: [
        { kind: 'tool', tool: 'get_order', arguments: { order_id: '4411' }, result: order4411 },
        { kind: 'tool', tool: 'get_order', arguments: { order_id: '4412' }, result: order4412 },
      ],
    });
    const [first, second] = answer.split('\n\n');
    expect(first).toBe(['Order 4411:', ...fieldLines].join('\n'));
    expect(second?.split('\n').slice(0, 4)).toEqual(['Order 4412:', '- order id: 4412', '- status: pending', '- total: 120.50']);
  });

  it('writes a scalar result after its type', () => {
    expect(oneStep('en', 'get the balance of order 4411', 'get_balance', { order_id: '4411' }, '0.00', {}, undefined)).toBe('Balance: 0.00');
  });
});

describe('a record whose status reads like a gate', () => {
  it('writes an order whose status is cancelled as the order it is, not as a cancelled write', () => {
    const cancelled = { order_id: '4413', status: 'cancelled', total: '12.00', reason: 'customer asked' };
    expect(oneStep('en', 'show me order 4413', 'get_order', { order_id: '4413' }, cancelled)).toBe(
      ['Order 4413:', '- order id: 4413', '- status: cancelled', '- total: 12.00', '- reason: customer asked'].join('\n'),
    );
  });
});
