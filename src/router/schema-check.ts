/** A small JSON Schema check for tool arguments: the subset catalogues use, with messages that say what to fix. */
import type { JsonValue } from '../core/index.js';
import type { JsonSchema } from './types.js';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URI = /^[a-z][a-z0-9+.-]*:[^\s]+$/i;

/** Problems with `args` against an object schema; empty when they validate. */
export function checkArguments(schema: JsonSchema, args: unknown): string[] {
  const problems: string[] = [];
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return ['arguments must be an object'];
  const record = args as Record<string, unknown>;
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) if (!(name in record)) problems.push(`'${name}' is required`);
  for (const [name, value] of Object.entries(record)) {
    const property = properties[name];
    if (property === undefined) {
      problems.push(`unknown argument '${name}'. Arguments: ${Object.keys(properties).join(', ') || '(none)'}`);
      continue;
    }
    checkValue(property, value, name, problems);
  }
  return problems;
}

function checkValue(schema: JsonSchema, value: unknown, path: string, problems: string[]): void {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((t) => typeMatches(String(t), value))) {
    problems.push(`'${path}' must be ${types.join(' or ')}, not ${describe(value)}`);
    return;
  }
  if (schema.enum !== undefined && !schema.enum.some((option) => option === value)) {
    problems.push(`'${path}' must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  if (typeof value === 'string') {
    if (schema.format === 'date-time' && !DATE_TIME.test(value)) problems.push(`'${path}' must be an RFC 3339 date-time with an offset`);
    if (schema.format === 'date' && !DATE.test(value)) problems.push(`'${path}' must be a date (YYYY-MM-DD)`);
    if (schema.format === 'email' && !EMAIL.test(value)) problems.push(`'${path}' must be an email address`);
    if ((schema.format === 'uri' || schema.format === 'url') && !URI.test(value)) problems.push(`'${path}' must be a URI`);
    if (schema.pattern !== undefined) {
      let ok = true;
      try {
        ok = new RegExp(schema.pattern, 'u').test(value);
      } catch {
        ok = true;
      }
      if (!ok) problems.push(`'${path}' must match ${schema.pattern}`);
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`'${path}' must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`'${path}' must be at most ${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items !== undefined) value.forEach((item: JsonValue, i) => checkValue(schema.items as JsonSchema, item, `${path}[${i}]`, problems));
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && schema.properties !== undefined) {
    for (const problem of checkArguments(schema, value)) problems.push(`${path}: ${problem}`);
  }
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'integer': case 'int': return typeof value === 'number' && Number.isInteger(value);
    case 'number': case 'float': return typeof value === 'number' && Number.isFinite(value);
    case 'boolean': return typeof value === 'boolean';
    case 'array': case 'list': case 'tuple': return Array.isArray(value);
    case 'object': case 'dict': return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null': return value === null;
    default: return true;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
