import { Decimal } from 'decimal.js';

/**
 * The demo's fixed seed: a small manufacturer and shop. Everything is deterministic except the
 * calendar, which is placed around the moment of seeding so that "am I free on Thursday
 * afternoon?" always has something to find.
 */

/** One manager's rows, the shape every host's seed has. */
export interface SeedBatch {
  readonly manager: string;
  readonly rows: readonly Record<string, unknown>[];
}

const materials: readonly [string, number][] = [
  ['Steel', 7.8],
  ['Aluminum', 2.7],
  ['Cobalt', 8.9],
  ['Copper', 8.96],
  ['Titanium', 4.5],
  ['Brass', 8.5],
  ['Nylon', 1.15],
];

/** name, sku, material id, unit price, stock */
const parts: readonly [string, string, number, string, number][] = [
  ['Bolt', 'BLT-100', 1, '0.35', 5000],
  ['Bearing', 'BRG-200', 2, '4.20', 800],
  ['Gear', 'GR-300', 3, '12.50', 240],
  ['Nut', 'NUT-110', 1, '0.15', 9000],
  ['Washer', 'WSH-120', 1, '0.05', 12000],
  ['Spring', 'SPR-130', 1, '0.80', 3000],
  ['Bracket', 'BRK-210', 2, '2.60', 650],
  ['Pulley', 'PUL-220', 2, '6.75', 310],
  ['Heat Sink', 'HSK-230', 2, '9.90', 420],
  ['Valve Seat', 'VLS-310', 3, '18.40', 95],
  ['Turbine Blade', 'TRB-320', 3, '64.00', 40],
  ['Busbar', 'BSB-400', 4, '7.30', 500],
  ['Coil', 'COL-410', 4, '11.20', 260],
  ['Terminal', 'TRM-420', 4, '0.90', 4000],
  ['Shaft', 'SHF-500', 5, '38.00', 120],
  ['Fastener Kit', 'FKT-510', 5, '22.50', 200],
  ['Bushing', 'BSH-600', 6, '1.75', 1500],
  ['Fitting', 'FIT-610', 6, '3.40', 900],
  ['Knob', 'KNB-620', 6, '2.10', 700],
  ['Gasket', 'GSK-700', 7, '0.60', 6000],
  ['Spacer', 'SPC-710', 7, '0.25', 8000],
  ['Cable Tie', 'CBT-720', 7, '0.10', 20000],
  ['Hinge', 'HNG-140', 1, '3.20', 1100],
  ['Flange', 'FLG-240', 2, '5.40', 380],
];

/** name, status, budget, owner, part ids */
const projects: readonly [string, string, string, string, number[]][] = [
  ['Apollo', 'active', '250000.00', 'alice', [3, 11, 15, 1]],
  ['Mercury', 'active', '80000.00', 'bob', [2, 1, 6]],
  ['Gemini', 'planning', '120000.00', 'alice', [7, 13, 14]],
  ['Artemis', 'on_hold', '60000.00', 'dave', [10, 18, 20]],
  ['Voyager', 'done', '45000.00', 'erin', [12, 22]],
  ['Pioneer', 'active', '30000.00', 'alice', [23, 19, 21]],
];

/** project id, title, due date, done */
const tasks: readonly [number, string, string, boolean][] = [
  [1, 'Finalize gear tolerances', '2026-11-20', true],
  [1, 'Order turbine blades', '2026-12-04', false],
  [1, 'Machine shaft prototypes', '2026-12-11', false],
  [1, 'Vibration test of the gearbox', '2026-12-18', false],
  [1, 'Review supplier quotes', '2026-11-13', true],
  [1, 'Write the assembly manual', '2027-01-15', false],
  [2, 'Select bearing supplier', '2026-11-06', true],
  [2, 'Load test the bearing housing', '2026-12-02', false],
  [2, 'Spring fatigue report', '2026-12-09', false],
  [2, 'Update the bill of materials', '2026-11-27', true],
  [2, 'Customer demo', '2027-01-08', false],
  [3, 'Draft the requirements', '2026-12-01', false],
  [3, 'Bracket design sketches', '2026-12-15', false],
  [3, 'Coil winding trial', '2027-01-12', false],
  [3, 'Budget approval', '2026-11-25', true],
  [3, 'Pick the terminal vendor', '2026-12-19', false],
  [4, 'Valve seat failure analysis', '2026-10-30', true],
  [4, 'Gasket material comparison', '2026-11-18', true],
  [4, 'Decide whether to resume', '2026-12-22', false],
  [4, 'Archive test fixtures', '2026-12-30', false],
  [4, 'Fitting pressure test', '2026-11-10', true],
  [5, 'Busbar certification', '2026-09-15', true],
  [5, 'Final inspection', '2026-10-01', true],
  [5, 'Ship to customer', '2026-10-10', true],
  [5, 'Close the project file', '2026-10-20', true],
  [5, 'Lessons-learned meeting', '2026-10-24', true],
  [6, 'Hinge prototype', '2026-12-05', false],
  [6, 'Knob ergonomics study', '2026-12-12', false],
  [6, 'Spacer tolerance check', '2026-11-28', true],
  [6, 'Cost review', '2026-12-20', false],
  [6, 'Pilot batch', '2027-01-20', false],
];

/** name, email, city */
const customers: readonly [string, string, string][] = [
  ['Ana Souza', 'ana.souza@example.com', 'São Paulo'],
  ['Bruno Lima', 'bruno.lima@example.com', 'Rio de Janeiro'],
  ['Carla Mendes', 'carla.mendes@example.com', 'Belo Horizonte'],
  ['Daniel Costa', 'daniel.costa@example.com', 'Curitiba'],
  ['Emma Clarke', 'emma.clarke@example.com', 'London'],
  ['Farid Haddad', 'farid.haddad@example.com', 'Lyon'],
  ['Grace Kim', 'grace.kim@example.com', 'Toronto'],
  ['Hugo Martins', 'hugo.martins@example.com', 'Porto Alegre'],
  ['Isabel Rocha', 'isabel.rocha@example.com', 'Recife'],
  ['Jonas Weber', 'jonas.weber@example.com', 'Berlin'],
];

/** Orders whose lines and payments the docs and tests quote: part id, quantity. */
const fixedOrders: Readonly<Record<number, { status: string; lines: [number, number][]; paid: string }>> = {
  4411: { status: 'pending', lines: [[3, 2], [2, 10], [17, 4]], paid: '20.00' },
  4412: { status: 'paid', lines: [[15, 3], [1, 20]], paid: 'all' },
};

const statuses = ['paid', 'shipped', 'shipped', 'paid', 'pending', 'cancelled'] as const;

/** A small deterministic generator (mulberry32), so the seed is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function demoSeed(now: Date): readonly SeedBatch[] {
  const random = seededRandom(4401);
  const orders: Record<string, unknown>[] = [];
  const lines: Record<string, unknown>[] = [];
  const payments: Record<string, unknown>[] = [];
  const firstPlaced = Date.UTC(2026, 9, 1, 9, 0, 0);
  for (let id = 4401; id <= 4450; id++) {
    const fixed = fixedOrders[id];
    const orderLines: [number, number][] =
      fixed?.lines ??
      Array.from({ length: 1 + Math.floor(random() * 3) }, (): [number, number] => [
        1 + Math.floor(random() * parts.length),
        1 + Math.floor(random() * 12),
      ]);
    let total = new Decimal(0);
    for (const [partId, quantity] of orderLines) {
      const unitPrice = parts[partId - 1]![3];
      total = total.plus(new Decimal(unitPrice).times(quantity));
      lines.push({ id: lines.length + 1, order: id, part: partId, quantity, unitPrice });
    }
    const status = fixed?.status ?? statuses[id % statuses.length]!;
    const placedAt = new Date(firstPlaced + (id - 4401) * 31 * 3600 * 1000);
    orders.push({
      id,
      customer: ((id * 7) % customers.length) + 1,
      status,
      total: total.toFixed(2),
      placedAt: placedAt.toISOString(),
    });
    const paid = fixed?.paid ?? (status === 'paid' || status === 'shipped' ? 'all' : undefined);
    if (paid !== undefined) {
      payments.push({
        id: payments.length + 1,
        order: id,
        kind: 'charge',
        amount: paid === 'all' ? total.toFixed(2) : paid,
        createdAt: new Date(placedAt.getTime() + 2 * 3600 * 1000).toISOString(),
      });
    }
  }

  return [
    { manager: 'Material', rows: materials.map(([name, density], i) => ({ id: i + 1, name, density })) },
    {
      manager: 'Part',
      rows: parts.map(([name, sku, material, unitPrice, stock], i) => ({ id: i + 1, name, sku, material, unitPrice, stock })),
    },
    {
      manager: 'Project',
      rows: projects.map(([name, status, budget, owner, partIds], i) => ({ id: i + 1, name, status, budget, owner, parts: partIds })),
    },
    {
      manager: 'Task',
      rows: tasks.map(([project, title, dueDate, done], i) => ({ id: i + 1, project, title, dueDate, done })),
    },
    { manager: 'Customer', rows: customers.map(([name, email, city], i) => ({ id: i + 1, name, email, city })) },
    { manager: 'Order', rows: orders },
    { manager: 'OrderLine', rows: lines },
    { manager: 'Payment', rows: payments },
    { manager: 'CalendarEvent', rows: calendarAround(now) },
  ];
}

/** name, weekday (0 = Monday), week (0 = this, 1 = next), start hour, minutes long */
const meetings: readonly [string, number, number, number, number][] = [
  ['Stand-up', 0, 0, 9, 30],
  ['Supplier call: cobalt', 1, 0, 14, 60],
  ['Apollo design review', 3, 0, 14, 90],
  ['Customer visit: Ana Souza', 4, 0, 10, 60],
  ['Stand-up', 0, 1, 9, 30],
  ['Budget review', 2, 1, 16, 60],
  ['Mercury kickoff', 3, 1, 9, 60],
  ['Gemini requirements workshop', 3, 1, 15, 120],
];

/** Meetings in the current and next week (weeks start on Monday, times in UTC). */
function calendarAround(now: Date): Record<string, unknown>[] {
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return meetings.map(([title, weekday, week, hour, minutes], i) => {
    const start = new Date(monday.getTime() + ((week * 7 + weekday) * 24 + hour) * 3600 * 1000);
    return {
      id: i + 1,
      title,
      start: start.toISOString(),
      end: new Date(start.getTime() + minutes * 60 * 1000).toISOString(),
    };
  });
}

/**
 * A large synthetic shop for benchmarks: per unit of scale, 1,000 parts, 1,000 orders and 10,000
 * order lines (scale 100 → 100,000 parts and 1,000,000 lines), in batches of at most `batchSize`.
 */
export function* scaledSeed(scale: number, batchSize = 50_000): Generator<SeedBatch> {
  const random = seededRandom(7);
  yield { manager: 'Material', rows: materials.map(([name, density], i) => ({ id: i + 1, name, density })) };
  const partCount = 1000 * scale;
  yield* chunked('Part', partCount, batchSize, (id) => {
    const base = parts[(id - 1) % parts.length]!;
    return { id, name: `${base[0]} ${id}`, sku: `${base[1]}-${id}`, material: ((id - 1) % materials.length) + 1, unitPrice: base[3], stock: id % 1000 };
  });
  const projectCount = 10 * scale;
  yield* chunked('Project', projectCount, batchSize, (id) => ({
    id,
    name: `Project ${id}`,
    status: 'active',
    budget: '10000.00',
    parts: [1 + ((id * 13) % partCount), 1 + ((id * 29) % partCount), 1 + ((id * 31) % partCount)].filter((v, i, all) => all.indexOf(v) === i),
  }));
  yield* chunked('Task', 50 * scale, batchSize, (id) => ({ id, project: 1 + (id % projectCount), title: `Task ${id}`, done: id % 3 === 0 }));
  yield* chunked('Customer', 100 * scale, batchSize, (id) => ({ id, name: `Customer ${id}`, email: `customer${id}@example.com`, city: customers[id % customers.length]![2] }));
  const orderCount = 1000 * scale;
  yield* chunked('Order', orderCount, batchSize, (id) => ({
    id,
    customer: 1 + (id % (100 * scale)),
    status: statuses[id % statuses.length]!,
    total: '0.00',
    placedAt: new Date(Date.UTC(2026, 0, 1) + id * 60_000).toISOString(),
  }));
  yield* chunked('OrderLine', 10_000 * scale, batchSize, (id) => {
    const part = 1 + Math.floor(random() * partCount);
    return { id, order: 1 + ((id - 1) % orderCount), part, quantity: 1 + (id % 9), unitPrice: parts[(part - 1) % parts.length]![3] };
  });
}

function* chunked(manager: string, count: number, batchSize: number, row: (id: number) => Record<string, unknown>): Generator<SeedBatch> {
  for (let start = 1; start <= count; start += batchSize) {
    const end = Math.min(count, start + batchSize - 1);
    const rows: Record<string, unknown>[] = new Array<Record<string, unknown>>(end - start + 1);
    for (let id = start; id <= end; id++) rows[id - start] = row(id);
    yield { manager, rows };
  }
}
