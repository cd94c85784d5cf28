import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../core/index.js';
import type { Language } from '../router/index.js';
import { renderAnswer } from './index.js';
import { item, oneStep, plan, ptLabel } from './test-plans.js';

const charge = { order_id: '4411', amount: '40.00' };
const charged = { status: 'charged', order_id: '4411', payment: { id: '31', kind: 'charge', amount: '40.00', createdAt: '2026-11-30T10:00:00.000Z' }, balance: '34.00' };

function write(language: Language, tool: string, args: JsonObject, result: JsonValue): string {
  return oneStep(language, 'charge order 4411', tool, args, result, { confirmation: `${tool} with ${JSON.stringify(args)}?` });
}

describe('writes', () => {
  it('says what was charged and on what, then the result\'s other values (en)', () => {
    expect(write('en', 'charge_card', charge, charged)).toBe(
      ['Charged 40.00 to order 4411.', '- status: charged', '- payment: (id: 31, kind: charge, amount: 40.00, created at: Nov 30, 2026, 10:00 UTC)', '- balance: 34.00'].join('\n'),
    );
  });

  it('says what was charged and on what, then the result\'s other values (pt-BR)', () => {
    expect(write('pt-BR', 'charge_card', charge, charged)).toBe(
      ['Cobrança feita: 40,00 — pedido 4411.', '- status: charged', '- payment: (id: 31, kind: charge, amount: 40,00, created at: 30/11/2026, 10:00 UTC)', '- balance: 34,00'].join('\n'),
    );
  });

  it('says a refund on its order', () => {
    const refunded = { status: 'refunded', order_id: '4411', payment: { id: '32', kind: 'refund', amount: '10.00', createdAt: '2026-11-30T11:00:00.000Z' }, balance: '44.00' };
    expect(write('en', 'refund_order', { order_id: '4411', amount: '10.00' }, refunded).split('\n')[0]).toBe('Refunded 10.00 on order 4411.');
  });

  it('names what was created by its id and name ("create a project called Alpha and then add a task to it")', () => {
    const steps = [
      item({ tool: 'create_project', arguments: { name: 'Alpha' }, confirmation: 'Create project with name Alpha?' }),
      item({ tool: 'add_task', arguments: { title: 'Kick-off' }, confirmation: 'Add task with title Kick-off?', dependsOn: [0] }),
    ];
    const render = (language: Language): string =>
      renderAnswer({
        language,
        label: ptLabel,
        plan: plan('run', language, 'create a project called Alpha and then add a task to it', steps),
        steps: [
          { kind: 'tool', tool: 'create_project', arguments: { name: 'Alpha' }, result: { id: '17', name: 'Alpha', status: 'active' } },
          { kind: 'tool', tool: 'add_task', arguments: { project_id: '17', title: 'Kick-off' }, result: { id: '90', title: 'Kick-off', due: '2026-12-04', done: false, project_id: '17' } },
        ],
      });
    expect(render('en')).toBe(['Created project 17 "Alpha".', '- status: active', '', 'Added task 90 "Kick-off".', '- due: Dec 4, 2026', '- done: no', '- project id: 17'].join('\n'));
    expect(render('pt-BR')).toBe(
      ['Criação concluída: projeto 17 "Alpha".', '- status: active', '', 'Adição concluída: tarefa 90 "Kick-off".', '- due: 04/12/2026', '- done: não', '- project id: 17'].join('\n'),
    );
  });

  it('says a write whose verb it does not know as done, with its arguments', () => {
    expect(write('en', 'archive_project', { project_id: '17' }, { archived: true })).toBe('Done: archive project (project id: 17).\n- archived: yes');
    expect(write('pt-BR', 'archive_project', { project_id: '17' }, { archived: true })).toBe('Feito: archive project (project id: 17).\n- archived: sim');
  });

  it('names the thing an amount went to from its camelCase identity parameter', () => {
    expect(write('en', 'pay_invoice', { invoiceId: 'INV-9', amount: 12.5 }, { invoiceId: 'INV-9', paid: true })).toBe('Paid 12.5 on invoice INV-9.\n- paid: yes');
  });

  it('says a cancel_order write done even though the order it answers is cancelled', () => {
    const order = { id: '4413', status: 'cancelled', total: '12.00' };
    expect(write('en', 'cancel_order', { order_id: '4413' }, order)).toBe('Cancelled order 4413.\n- status: cancelled\n- total: 12.00');
  });

  it('writes a receipt sent with the address and time the result gives', () => {
    const sent = { status: 'sent', order_id: '4411', email: 'ana@example.com', sent_at: '2026-11-30T10:00:00.000Z' };
    expect(write('en', 'send_receipt', { order_id: '4411', email: 'ana@example.com' }, sent)).toBe(
      ['Sent receipt (order id: 4411, email: ana@example.com).', '- status: sent', '- order id: 4411', '- email: ana@example.com', '- sent at: Nov 30, 2026, 10:00 UTC'].join('\n'),
    );
  });
});

describe('writes that did not happen, and errors', () => {
  it('says a rejected confirmation plainly (en and pt-BR)', () => {
    const rejected = { status: 'cancelled', reason: 'user_rejected' };
    expect(write('en', 'charge_card', charge, rejected)).toBe('Not done: the confirmation was rejected (charge_card).');
    expect(write('pt-BR', 'charge_card', charge, rejected)).toBe('Não feito: a confirmação foi recusada (charge_card).');
    expect(write('en', 'charge_card', charge, { status: 'rejected' })).toBe('Not done: the confirmation was rejected (charge_card).');
  });

  it('says an expired confirmation plainly (en and pt-BR)', () => {
    const expired = { status: 'cancelled', reason: 'confirmation_timed_out' };
    expect(write('en', 'charge_card', charge, expired)).toBe('Not done: the confirmation expired (charge_card).');
    expect(write('pt-BR', 'charge_card', charge, { status: 'expired' })).toBe('Não feito: a confirmação expirou (charge_card).');
    const lapsed = { error: { code: 'confirmation_expired', message: 'The confirmation lapsed before it was approved. Ask for the change again.' } };
    expect(write('en', 'charge_card', charge, lapsed)).toBe('Not done: the confirmation expired (charge_card).');
    expect(write('pt-BR', 'charge_card', charge, lapsed)).toBe('Não feito: a confirmação expirou (charge_card).');
  });

  it('says a cancellation for another reason with that reason', () => {
    expect(write('en', 'charge_card', charge, { status: 'cancelled', reason: 'turn_cancelled' })).toBe('Not done: charge_card was cancelled (turn_cancelled).');
  });

  it('says a write waiting for confirmation with the sentence the person confirms', () => {
    const pending = { status: 'confirmation_required', confirmation_id: 'c1', tool: 'charge_card', arguments: charge, expires_at: '2026-11-30T10:05:00.000Z' };
    expect(oneStep('en', 'charge order 4411', 'charge_card', charge, pending, { confirmation: 'Charge card with order id 4411 and amount 40.00?' })).toBe(
      'Waiting for your confirmation: Charge card with order id 4411 and amount 40.00?',
    );
  });

  it('says a tool error plainly with its code and message (en and pt-BR)', () => {
    const failed = { error: { code: 'invalid_arguments', message: 'Cannot charge 90.00 on order 4411: the unpaid balance is 34.00.' } };
    expect(write('en', 'charge_card', { order_id: '4411', amount: '90.00' }, failed)).toBe(
      'charge_card failed (invalid_arguments): Cannot charge 90.00 on order 4411: the unpaid balance is 34.00.',
    );
    expect(write('pt-BR', 'charge_card', { order_id: '4411', amount: '90.00' }, failed)).toBe(
      'charge_card falhou (invalid_arguments): Cannot charge 90.00 on order 4411: the unpaid balance is 34.00.',
    );
    expect(oneStep('en', 'show me order 9999', 'get_order', { order_id: '9999' }, { error: { code: 'not_found', message: 'No order 9999.' } })).toBe(
      'get_order failed (not_found): No order 9999.',
    );
  });

  it('says which steps were not run after one failed', () => {
    const answer = renderAnswer({
      language: 'en',
      plan: plan('run', 'en', 'create a project called Alpha and then add a task to it', [
        item({ tool: 'create_project', arguments: { name: 'Alpha' }, confirmation: 'x', text: 'create a project called Alpha' }),
        item({ tool: 'add_task', arguments: {}, confirmation: 'y', text: 'add a task to it' }),
      ]),
      steps: [{ kind: 'tool', tool: 'create_project', arguments: { name: 'Alpha' }, result: { error: { code: 'permission_denied', message: 'You may not create projects.' } } }],
    });
    expect(answer).toBe('create_project failed (permission_denied): You may not create projects.\n\nNot run: "add a task to it".');
  });
});
