/**
 * The demo's host tools as router catalogue data (signatures shared with the demo's host tools):
 * orders are strings of digits ("4411"), amounts decimal strings ("40.00"), times RFC 3339.
 */
import type { CatalogueEntry } from '../../router/index.js';

const orderId = { type: 'string', pattern: '^[0-9]+$', description: 'The order number, digits only, such as "4411".' } as const;
const amount = { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,2})?$', description: 'A decimal amount such as "40.00".' } as const;

export const demoCatalogue: readonly CatalogueEntry[] = [
  {
    name: 'get_order',
    description: 'Look up one order: its status, total and customer email.',
    parameters: { type: 'object', properties: { order_id: orderId }, required: ['order_id'], additionalProperties: false },
    effect: 'read',
    outputs: { identity: 'order_id', fields: ['order_id', 'status', 'total', 'email'] },
  },
  {
    name: 'list_events',
    description: 'List the calendar events between two times.',
    parameters: {
      type: 'object',
      properties: {
        time_min: { type: 'string', format: 'date-time', description: 'Start of the period (RFC 3339).' },
        time_max: { type: 'string', format: 'date-time', description: 'End of the period (RFC 3339), exclusive.' },
      },
      required: ['time_min', 'time_max'],
      additionalProperties: false,
    },
    effect: 'read',
    outputs: { identity: 'id', fields: ['id', 'title', 'start', 'end'] },
  },
  {
    name: 'charge_card',
    description: 'Charge the card on file for an order.',
    parameters: { type: 'object', properties: { order_id: orderId, amount }, required: ['order_id', 'amount'], additionalProperties: false },
    effect: 'irreversible',
    undo: 'refund_order',
  },
  {
    name: 'refund_order',
    description: 'Refund an amount of an order to its card.',
    parameters: { type: 'object', properties: { order_id: orderId, amount }, required: ['order_id', 'amount'], additionalProperties: false },
    effect: 'write',
  },
  {
    name: 'send_receipt',
    description: 'Email the receipt of an order.',
    parameters: {
      type: 'object',
      properties: { order_id: orderId, email: { type: 'string', format: 'email', description: 'Where to send the receipt.' } },
      required: ['order_id', 'email'],
      additionalProperties: false,
    },
    effect: 'write',
  },
  {
    name: 'create_project',
    description: 'Create a project.',
    parameters: { type: 'object', properties: { name: { type: 'string', description: 'The project name.' } }, required: ['name'], additionalProperties: false },
    effect: 'write',
    outputs: { identity: 'id', fields: ['id', 'name'] },
  },
  {
    name: 'add_task',
    description: 'Add a task to a project.',
    parameters: {
      type: 'object',
      properties: {
        project_id: { type: 'string', pattern: '^[0-9]+$', description: 'The project the task belongs to.' },
        title: { type: 'string', description: 'What the task is.' },
        due: { type: 'string', format: 'date', description: 'When it is due.' },
      },
      required: ['project_id', 'title'],
      additionalProperties: false,
    },
    effect: 'write',
    outputs: { identity: 'id', fields: ['id', 'title'] },
  },
];
