/**
 * Lookup cases over the seeded shop (`seedShop`): [title, manager, filter, expected names or ids].
 * Shared by the lookup tests and the database conformance suite.
 */
export type LookupCase = readonly [string, string, Record<string, unknown>, string[]];

// Seed: Bolt(Steel) Bearing(Aluminum) Gear(Cobalt) Bracket(Steel, inactive) Washer(no material).
export const lookupCases: readonly LookupCase[] = [
  // id
  ['id exact', 'Part', { id: '2' }, ['Bearing']],
  ['id in', 'Part', { id__in: [1, '3'] }, ['Bolt', 'Gear']],
  ['id gt', 'Part', { id__gt: 3 }, ['Bracket', 'Washer']],
  ['id gte', 'Part', { id__gte: 4 }, ['Bracket', 'Washer']],
  ['id lt', 'Part', { id__lt: 2 }, ['Bolt']],
  ['id lte', 'Part', { id__lte: 2 }, ['Bolt', 'Bearing']],
  // string
  ['string exact', 'Part', { name: 'Gear' }, ['Gear']],
  ['string exact is case-sensitive', 'Part', { name: 'gear' }, []],
  ['string iexact', 'Part', { name__iexact: 'gEAR' }, ['Gear']],
  ['string contains', 'Part', { name__contains: 'ea' }, ['Bearing', 'Gear']],
  ['string contains is case-sensitive', 'Part', { name__contains: 'EA' }, []],
  ['string icontains', 'Part', { name__icontains: 'EA' }, ['Bearing', 'Gear']],
  ['string startswith', 'Part', { name__startswith: 'B' }, ['Bolt', 'Bearing', 'Bracket']],
  ['string startswith is case-sensitive', 'Part', { name__startswith: 'b' }, []],
  ['string in', 'Part', { name__in: ['Bolt', 'Washer', 'Nope'] }, ['Bolt', 'Washer']],
  ['like wildcards are literal in contains', 'Part', { sku__contains: '_' }, ['Washer']],
  ['like wildcards are literal in icontains', 'Part', { sku__icontains: '_5' }, ['Washer']],
  ['percent is literal', 'Part', { notes__icontains: '100%' }, ['Bearing']],
  // text
  ['text exact', 'Part', { notes: 'Sealed; 100% tested' }, ['Bearing']],
  ['text iexact', 'Part', { notes__iexact: 'sealed; 100% TESTED' }, ['Bearing']],
  ['text contains', 'Part', { notes__contains: 'Sealed' }, ['Bearing']],
  ['text startswith', 'Part', { notes__startswith: 'Seal' }, ['Bearing']],
  ['text isnull false', 'Part', { notes__isnull: false }, ['Bearing']],
  // integer
  ['integer exact', 'Part', { stock: 40 }, ['Bearing']],
  ['integer in', 'Part', { stock__in: [0, 12] }, ['Gear', 'Bracket']],
  ['integer gt', 'Part', { stock__gt: 40 }, ['Bolt', 'Washer']],
  ['integer gte', 'Part', { stock__gte: 40 }, ['Bolt', 'Bearing', 'Washer']],
  ['integer lt', 'Part', { stock__lt: 12 }, ['Bracket']],
  ['integer lte', 'Part', { stock__lte: 12 }, ['Gear', 'Bracket']],
  // decimal (exact, numeric order — not text order)
  ['decimal exact', 'Part', { unitPrice: '12.5' }, ['Bearing']],
  ['decimal exact from a number', 'Part', { unitPrice: 48 }, ['Gear']],
  ['decimal in', 'Part', { unitPrice__in: ['0.25', '3.10'] }, ['Bolt', 'Bracket']],
  ['decimal gt', 'Part', { unitPrice__gt: '3.1' }, ['Bearing', 'Gear']],
  ['decimal gte', 'Part', { unitPrice__gte: '3.10' }, ['Bearing', 'Gear', 'Bracket']],
  ['decimal lt', 'Part', { unitPrice__lt: '0.25' }, ['Washer']],
  ['decimal lte', 'Part', { unitPrice__lte: '0.25' }, ['Bolt', 'Washer']],
  // float
  ['float exact', 'Material', { density: 2.7 }, ['Aluminum']],
  ['float in', 'Material', { density__in: [7.8, 8.9] }, ['Steel', 'Cobalt']],
  ['float gt', 'Material', { density__gt: 7.8 }, ['Cobalt']],
  ['float gte', 'Material', { density__gte: 7.8 }, ['Steel', 'Cobalt']],
  ['float lt', 'Material', { density__lt: 7.8 }, ['Aluminum']],
  ['float lte', 'Material', { density__lte: 7.8 }, ['Steel', 'Aluminum']],
  ['float isnull', 'Part', { weight__isnull: false }, ['Bolt']],
  // boolean
  ['boolean exact true', 'Part', { active: true }, ['Bolt', 'Bearing', 'Gear', 'Washer']],
  ['boolean exact false', 'Part', { active: false }, ['Bracket']],
  // date
  ['date exact', 'Part', { releasedOn: '2024-06-01' }, ['Bearing']],
  ['date in', 'Part', { releasedOn__in: ['2024-01-15', '2025-02-20'] }, ['Bolt', 'Gear']],
  ['date gt', 'Part', { releasedOn__gt: '2024-06-01' }, ['Gear']],
  ['date gte', 'Part', { releasedOn__gte: '2024-06-01' }, ['Bearing', 'Gear']],
  ['date lt', 'Part', { releasedOn__lt: '2024-06-01' }, ['Bolt']],
  ['date lte', 'Part', { releasedOn__lte: '2024-06-01' }, ['Bolt', 'Bearing']],
  ['date isnull', 'Part', { releasedOn__isnull: true }, ['Bracket', 'Washer']],
  // datetime (offsets normalized to UTC before comparing)
  ['datetime exact across offsets', 'Part', { checkedAt: '2026-01-12T08:30:00Z' }, ['Gear']],
  ['datetime in', 'Part', { checkedAt__in: ['2026-01-10T09:00:00+01:00'] }, ['Bolt']],
  ['datetime gt', 'Part', { checkedAt__gt: '2026-01-10T08:00:00Z' }, ['Gear']],
  ['datetime gte', 'Part', { checkedAt__gte: '2026-01-10T08:00:00Z' }, ['Bolt', 'Gear']],
  ['datetime lt', 'Part', { checkedAt__lt: '2026-01-12T10:30:00+02:00' }, ['Bolt']],
  ['datetime lte', 'Part', { checkedAt__lte: '2026-01-12T10:30:00+02:00' }, ['Bolt', 'Gear']],
  ['datetime isnull', 'Part', { checkedAt__isnull: false }, ['Bolt', 'Gear']],
  // enum
  ['enum exact', 'Part', { kind: 'motion' }, ['Bearing', 'Gear']],
  ['enum in', 'Part', { kind__in: ['structure', 'fastener'] }, ['Bolt', 'Bracket', 'Washer']],
  // nullable string
  ['string isnull true', 'Material', { code__isnull: true }, ['Aluminum']],
  ['exact null means is null', 'Material', { code: null }, ['Aluminum']],
  // foreign keys
  ['one relation by id', 'Part', { material: 1 }, ['Bolt', 'Bracket']],
  ['one relation in', 'Part', { material__in: ['2', '3'] }, ['Bearing', 'Gear']],
  ['one relation isnull', 'Part', { material__isnull: true }, ['Washer']],
  // traversal
  ['one traversal', 'Part', { material__name: 'Steel' }, ['Bolt', 'Bracket']],
  ['one traversal with operator', 'Part', { material__name__icontains: 'alu' }, ['Bearing']],
  ['many traversal matches when any related row matches', 'Material', { parts__stock__gt: 100 }, ['Steel']],
  ['manyToMany traversal', 'Part', { projects__name: 'Apollo' }, ['Bolt', 'Gear']],
  ['reverse manyToMany traversal', 'Project', { parts__material__name: 'Aluminum' }, ['Mercury']],
  ['three hops', 'OrderLine', { order__customer__city: 'Porto' }, ['3']],
  ['keys through one relation match the same related row', 'Material', { parts__stock__gt: 100, parts__active: false }, []],
  ['keys combine with AND', 'Part', { material__name: 'Steel', active: true }, ['Bolt']],
];

