import { describe, expect, it } from 'vitest';
import { confirmationSentence } from './index.js';

describe('the sentence a person confirms, in every client', () => {
  it("is the server's own when it wrote one", () => {
    expect(confirmationSentence('charge_order', { order_id: 4411, amount: '40.00' }, 'Charge 40.00 to order 4411?')).toBe('Charge 40.00 to order 4411?');
  });

  it('is made from the mutation and its input otherwise: what happens, to which record, with which values', () => {
    expect(confirmationSentence('cancel_appointment', { appointment_id: '19' })).toBe('Cancel appointment with appointment id “19”?');
    expect(confirmationSentence('createTask', { title: 'Check bolts', project: '1' })).toBe('Create a new task with title “Check bolts” and project “1”?');
    expect(confirmationSentence('updateOrderLine', { id: 7, quantity: 3 })).toBe('Change order line 7: set quantity 3?');
    expect(confirmationSentence('deleteTask', { id: 12 })).toBe('Delete task 12?');
    expect(confirmationSentence('send_receipt', { to: ['a@example.com'] }, '  ')).toBe('Send receipt with to ["a@example.com"]?');
  });
});
