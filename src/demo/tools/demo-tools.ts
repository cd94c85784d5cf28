import { Decimal } from 'decimal.js';
import { z } from 'zod';
import type { ChatApp, Tool, ToolContext, ToolSettingsInput } from '../../tools/index.js';
import { defineTool, toolError } from '../../tools/index.js';
import { loadOrder, runDemoGraphql } from './demo-graphql.js';
import { money, orderMoney } from './money.js';

const orderId = z.string().regex(/^[0-9]{1,12}$/, 'an order number is digits only, such as "4411"').describe('The order number, digits only, such as "4411".');
const amountPattern = /^[0-9]{1,9}(\.[0-9]{1,2})?$/;
const amount = z
  .string()
  .regex(amountPattern, 'an amount is a decimal string such as "40.00"')
  .refine((value) => !amountPattern.test(value) || new Decimal(value).greaterThan(0), 'the amount must be above 0.00')
  .describe('A decimal amount such as "40.00".');

/** The demo's chat settings: catalogue and orders exposed; createTask and updateTask allowed, both confirmed. */
export const demoToolSettings = Object.freeze({
  allowedMutations: ['createTask', 'updateTask'],
  confirmMutations: ['createTask', 'updateTask'],
}) satisfies ToolSettingsInput;

const paymentDocument = `mutation DemoPayment($input: PaymentCreateInput!) {
  createPayment(input: $input) { id kind amount createdAt }
}`;

type PaymentRow = { id: string; kind: string; amount: string; createdAt: string };

/** A charge or refund on an order, as the asking actor, dated by the tool's clock. */
async function recordPayment(app: ChatApp, ctx: ToolContext, orderId: string, kind: 'charge' | 'refund', value: Decimal): Promise<PaymentRow> {
  const data = await runDemoGraphql<{ createPayment: PaymentRow }>(app, ctx.actor, ctx.signal, paymentDocument, {
    input: { order: orderId, kind, amount: money(value), createdAt: ctx.now().toISOString() },
  });
  return data.createPayment;
}

/** The demo shop's own tools, over its database, as the asking actor. */
export function createDemoHostTools(app: ChatApp): Tool[] {
  const getOrder = defineTool({
    name: 'get_order',
    description: 'Look up one order: its status, total, customer email, lines, payments and unpaid balance.',
    input: z.object({ order_id: orderId }),
    effect: 'read',
    handler: async (args, ctx) => {
      const order = await loadOrder(app, ctx.actor, ctx.signal, args.order_id);
      const sums = orderMoney(order);
      return {
        order_id: order.id,
        status: order.status,
        total: order.total,
        email: order.customer?.email ?? null,
        customer: order.customer?.name ?? null,
        placed_at: order.placedAt,
        lines: order.lines.map((line) => ({ part: line.part?.name ?? null, sku: line.part?.sku ?? null, quantity: line.quantity, unit_price: line.unitPrice })),
        paid: money(sums.charged.minus(sums.refunded)),
        balance: money(sums.unpaid),
        receipt_sent_to: order.receiptEmail,
      };
    },
  });

  const listEvents = defineTool({
    name: 'list_events',
    description: 'List the calendar events that overlap a period, earliest first.',
    input: z.object({
      time_min: z.iso.datetime({ offset: true }).describe('Start of the period (RFC 3339).'),
      time_max: z.iso.datetime({ offset: true }).describe('End of the period (RFC 3339), exclusive.'),
    }),
    effect: 'read',
    handler: async (args, ctx) => {
      const from = new Date(args.time_min);
      const to = new Date(args.time_max);
      if (!(from.getTime() < to.getTime())) throw toolError('invalid_arguments', 'time_min must be before time_max.');
      // The calendar is the signed-in staff's: an empty list for a visitor would read as "you are free".
      if (ctx.actor.kind === 'anonymous') throw toolError('forbidden', 'The calendar is for signed-in staff; sign in to see it.');
      const data = await runDemoGraphql<{ calendarEventList: { items: { id: string; title: string; start: string; end: string }[] } }>(
        app,
        ctx.actor,
        ctx.signal,
        `query DemoEvents($filter: CalendarEventFilter) { calendarEventList(filter: $filter, pageSize: 200) { items { id title start end } } }`,
        { filter: { start__lt: to.toISOString(), end__gt: from.toISOString() } },
      );
      return [...data.calendarEventList.items].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    },
  });

  const chargeCard = defineTool({
    name: 'charge_card',
    description: 'Charge the card on file for an order. Refuses more than the unpaid balance. Cannot be undone except by a refund.',
    input: z.object({ order_id: orderId, amount }),
    effect: 'irreversible',
    handler: async (args, ctx) => {
      const order = await loadOrder(app, ctx.actor, ctx.signal, args.order_id);
      const sums = orderMoney(order);
      const value = new Decimal(args.amount);
      if (value.greaterThan(sums.unpaid)) {
        throw toolError('invalid_arguments', `Cannot charge ${money(value)} on order ${order.id}: the unpaid balance is ${money(sums.unpaid)}.`);
      }
      const payment = await recordPayment(app, ctx, order.id, 'charge', value);
      return { status: 'charged', order_id: order.id, payment, balance: money(sums.unpaid.minus(value)) };
    },
  });

  const refundOrder = defineTool({
    name: 'refund_order',
    description: 'Refund an amount of an order to its card. Refuses more than was paid.',
    input: z.object({ order_id: orderId, amount }),
    effect: 'write',
    handler: async (args, ctx) => {
      const order = await loadOrder(app, ctx.actor, ctx.signal, args.order_id);
      const sums = orderMoney(order);
      const value = new Decimal(args.amount);
      if (value.greaterThan(sums.refundable)) {
        throw toolError('invalid_arguments', `Cannot refund ${money(value)} on order ${order.id}: ${money(sums.refundable)} was paid.`);
      }
      const payment = await recordPayment(app, ctx, order.id, 'refund', value);
      return { status: 'refunded', order_id: order.id, payment, balance: money(sums.unpaid.plus(value)) };
    },
  });

  const sendReceipt = defineTool({
    name: 'send_receipt',
    description: 'Email the receipt of an order (records where and when it was sent).',
    input: z.object({ order_id: orderId, email: z.email('a valid email address such as ana@example.com').max(254).describe('Where to send the receipt.') }),
    effect: 'write',
    handler: async (args, ctx) => {
      const order = await loadOrder(app, ctx.actor, ctx.signal, args.order_id);
      const sentAt = ctx.now().toISOString();
      await runDemoGraphql(
        app,
        ctx.actor,
        ctx.signal,
        `mutation DemoReceipt($id: ID!, $input: OrderUpdateInput!) { updateOrder(id: $id, input: $input) { id } }`,
        { id: order.id, input: { receiptEmail: args.email, receiptSentAt: sentAt } },
      );
      return { status: 'sent', order_id: order.id, email: args.email, sent_at: sentAt };
    },
  });

  const createProject = defineTool({
    name: 'create_project',
    description: 'Create a project; answers the new project with its id.',
    input: z.object({ name: z.string().trim().min(1).max(200).describe('The project name.') }),
    effect: 'write',
    handler: async (args, ctx) => {
      const data = await runDemoGraphql<{ createProject: { id: string; name: string; status: string } }>(
        app,
        ctx.actor,
        ctx.signal,
        `mutation DemoProject($input: ProjectCreateInput!) { createProject(input: $input) { id name status } }`,
        { input: { name: args.name } },
      );
      return data.createProject;
    },
  });

  const addTask = defineTool({
    name: 'add_task',
    description: 'Add a task to a project; answers the new task with its id.',
    input: z.object({
      project_id: z.string().regex(/^[0-9]{1,12}$/, 'a project id is digits only, such as "3"').describe('The project the task belongs to.'),
      title: z.string().trim().min(1).max(200).describe('What the task is.'),
      due: z.iso.date().optional().describe('When it is due (YYYY-MM-DD).'),
    }),
    effect: 'write',
    handler: async (args, ctx) => {
      const data = await runDemoGraphql<{ createTask: { id: string; title: string; dueDate: string | null; done: boolean } }>(
        app,
        ctx.actor,
        ctx.signal,
        `mutation DemoTask($input: TaskCreateInput!) { createTask(input: $input) { id title dueDate done } }`,
        { input: { project: args.project_id, title: args.title, ...(args.due === undefined ? {} : { dueDate: args.due }) } },
      );
      const task = data.createTask;
      return { id: task.id, title: task.title, due: task.dueDate, done: task.done, project_id: args.project_id };
    },
  });

  return [getOrder, listEvents, chargeCard, refundOrder, sendReceipt, createProject, addTask];
}
