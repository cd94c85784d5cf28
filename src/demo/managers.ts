import { defineManager } from '../data/index.js';
import type { ManagerPermissions } from '../data/index.js';
import { isAdmin, isStaff } from './actors.js';

/** The catalogue (materials, parts, projects, tasks) is public; admins change it. */
const catalogue: ManagerPermissions = {
  read: () => true,
  create: isAdmin,
  update: isAdmin,
  delete: isAdmin,
};

/** Customers, orders and payments: staff read them, admins change them, anonymous sees none. */
const business: ManagerPermissions = {
  read: isStaff,
  create: isAdmin,
  update: isAdmin,
  delete: isAdmin,
};

export const Material = defineManager({
  name: 'Material',
  description: 'A raw material parts are made of, with its density in g/cm³.',
  fields: {
    name: { type: 'string' },
    density: { type: 'float', description: 'Density in g/cm³.' },
  },
  chatExposed: true,
  permissions: catalogue,
});

export const Part = defineManager({
  name: 'Part',
  description: 'A part the shop makes and sells, made of one material.',
  fields: {
    name: { type: 'string' },
    sku: { type: 'string', description: 'Stock-keeping unit code.' },
    unitPrice: { type: 'decimal', description: 'Price of one unit.' },
    stock: { type: 'integer', default: 0, description: 'Units in stock.' },
  },
  relations: {
    material: { kind: 'one', target: 'Material', reverse: 'parts' },
  },
  chatExposed: true,
  permissions: catalogue,
});

export const Project = defineManager({
  name: 'Project',
  description: 'An engineering project, with its status, budget, owner and the parts it uses.',
  fields: {
    name: { type: 'string' },
    status: { type: 'enum', values: ['planning', 'active', 'on_hold', 'done'], default: 'planning' },
    budget: { type: 'decimal', nullable: true },
    owner: { type: 'string', nullable: true, description: 'User id of the person in charge.' },
  },
  relations: {
    parts: { kind: 'manyToMany', target: 'Part', reverse: 'projects' },
  },
  chatExposed: true,
  permissions: catalogue,
});

export const Task = defineManager({
  name: 'Task',
  description: 'A task in a project, with its due date and whether it is done.',
  fields: {
    title: { type: 'string' },
    dueDate: { type: 'date', nullable: true },
    done: { type: 'boolean', default: false },
  },
  relations: {
    project: { kind: 'one', target: 'Project', reverse: 'tasks' },
  },
  chatExposed: true,
  permissions: catalogue,
});

export const Customer = defineManager({
  name: 'Customer',
  description: 'A customer of the shop.',
  fields: {
    name: { type: 'string' },
    email: { type: 'string' },
    city: { type: 'string' },
  },
  permissions: business,
});

export const Order = defineManager({
  name: 'Order',
  description: 'A customer order, with its status, total and when it was placed.',
  fields: {
    status: { type: 'enum', values: ['pending', 'paid', 'shipped', 'cancelled'], default: 'pending' },
    total: { type: 'decimal' },
    placedAt: { type: 'datetime' },
    receiptEmail: { type: 'string', nullable: true, description: 'Where the receipt was sent, once sent.' },
    receiptSentAt: { type: 'datetime', nullable: true },
  },
  relations: {
    customer: { kind: 'one', target: 'Customer', reverse: 'orders' },
  },
  chatExposed: true,
  permissions: business,
});

export const OrderLine = defineManager({
  name: 'OrderLine',
  description: 'One line of an order: a part, a quantity and the unit price charged.',
  fields: {
    quantity: { type: 'integer' },
    unitPrice: { type: 'decimal' },
  },
  relations: {
    order: { kind: 'one', target: 'Order', reverse: 'lines' },
    part: { kind: 'one', target: 'Part', reverse: 'orderLines' },
  },
  chatExposed: true,
  permissions: business,
});

export const Payment = defineManager({
  name: 'Payment',
  description: 'Money received for an order (a charge) or given back (a refund).',
  fields: {
    kind: { type: 'enum', values: ['charge', 'refund'], default: 'charge' },
    amount: { type: 'decimal' },
    createdAt: { type: 'datetime' },
  },
  relations: {
    order: { kind: 'one', target: 'Order', reverse: 'payments' },
  },
  permissions: business,
});

export const CalendarEvent = defineManager({
  name: 'CalendarEvent',
  description: 'A meeting or appointment in the shop calendar.',
  fields: {
    title: { type: 'string' },
    start: { type: 'datetime' },
    end: { type: 'datetime' },
  },
  permissions: business,
});

export const demoManagers = [Material, Part, Project, Task, Customer, Order, OrderLine, Payment, CalendarEvent] as const;
