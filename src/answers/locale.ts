/**
 * Values written for the person's locale: numbers grouped and with the locale's decimal mark (keeping
 * the scale the value has: money stays "250,000.00" / "250.000,00"), dates and date-times in the
 * locale's order with the offset they were written in, yes/no in words. Identities (ids, codes, SKUs,
 * years) are written exactly as stored. Exact: decimals are regrouped as text, never through floats.
 */
import type { Language } from '../router/index.js';

const IDENTITY = /(?:^|_)(?:id|code|sku|number|no|zip|phone|email|ref|key|uuid)$|^id$|year|published|founded|born|vintage/i;
// camelCase identities ("orderId") are matched case-sensitively, or "paid" would read as "pa" + "id".
const CAMEL_IDENTITY = /[a-z](?:Id|Code|Number|Ref|Key|Year)$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function isIdentityField(field: string): boolean {
  return IDENTITY.test(field) || CAMEL_IDENTITY.test(field);
}

/** A number or a decimal string in the locale: `5000` → `5,000` / `5.000`; `0.35` → `0.35` / `0,35`. */
export function formatNumber(number: number | string, language: Language): string {
  const text = typeof number === 'number' ? numberText(number) : number;
  if (!DECIMAL.test(text)) return text;
  const negative = text.startsWith('-');
  const [whole = '', fraction] = (negative ? text.slice(1) : text).split('.');
  const [group, point] = language === 'pt-BR' ? ['.', ','] : [',', '.'];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `${point}${fraction}`}`;
}

function numberText(number: number): string {
  if (!Number.isFinite(number)) return String(number);
  const text = String(number);
  // 1e21 and the like: write the digits out.
  return /e/i.test(text) ? number.toFixed(Math.max(0, Math.min(20, -Math.floor(Math.log10(Math.abs(number) || 1)) + 15))) : text;
}

/** `2026-12-04` → `Dec 4, 2026` / `04/12/2026`. */
export function formatDate(iso: string, language: Language): string {
  const m = ISO_DATE.exec(iso);
  if (m === null) return iso;
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  return language === 'pt-BR' ? `${d}/${mo}/${y}` : `${MONTHS_EN[Number(mo) - 1] ?? mo} ${Number(d)}, ${y}`;
}

/** `2026-12-03T14:00:00.000Z` → `Dec 3, 2026, 14:00 UTC` / `03/12/2026, 14:00 UTC`, in the offset it was written in. */
export function formatDateTime(iso: string, language: Language): string {
  const m = ISO_DATETIME.exec(iso);
  if (m === null) return iso;
  const [, y, mo, d, h, mi, s, zone] = m as unknown as [string, string, string, string, string, string, string | undefined, string];
  const time = s === undefined || s === '00' ? `${h}:${mi}` : `${h}:${mi}:${s}`;
  const offset = zone === 'Z' || zone === '+00:00' ? 'UTC' : `UTC${zone}`;
  return `${formatDate(`${y}-${mo}-${d}`, language)}, ${time} ${offset}`;
}

export function formatBoolean(value: boolean, language: Language): string {
  if (language === 'pt-BR') return value ? 'sim' : 'não';
  return value ? 'yes' : 'no';
}

/** A scalar as the person reads it: by its shape, and by its field's name for identities. */
export function formatScalar(value: string | number | boolean, field: string, language: Language): string {
  if (typeof value === 'boolean') return formatBoolean(value, language);
  if (isIdentityField(field)) return String(value);
  if (typeof value === 'number') return formatNumber(value, language);
  if (ISO_DATETIME.test(value)) return formatDateTime(value, language);
  if (ISO_DATE.test(value)) return formatDate(value, language);
  // A decimal string with a point is a measure or money ("74.00"); digits alone may be an identity.
  if (DECIMAL.test(value) && value.includes('.')) return formatNumber(value, language);
  return value;
}

/** The number of decimals a decimal text has (`"19.40"` → 2). */
export function scaleOf(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}
