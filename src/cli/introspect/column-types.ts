import type { FieldType, IntrospectedColumn, IntrospectedSchema } from '../../data/index.js';

/** How one column maps to a Plumb field type, or why it cannot. Pure. */
export type ColumnMapping =
  | {
      readonly kind: 'field';
      readonly type: FieldType;
      readonly scale?: number;
      readonly values?: readonly string[];
      /** Said beside the field: what the mapping guessed or loses. */
      readonly note?: string;
    }
  | { readonly kind: 'unsupported'; readonly reason: string };

type Dialect = IntrospectedSchema['dialect'];

/** Plumb's decimals keep 0 to 9 digits after the point. */
const maxScale = 9;

function unsupported(column: IntrospectedColumn): ColumnMapping {
  return { kind: 'unsupported', reason: `Plumb has no field type for ${column.dataType === '' ? 'a column without a declared type' : column.dataType}` };
}

/**
 * SQLite, by the declared type: a few names Plumb reads as what they say (BOOLEAN, DATE,
 * DATETIME, JSON), then SQLite's own affinity rules (https://sqlite.org/datatype3.html §3.1).
 */
function sqliteMapping(column: IntrospectedColumn): ColumnMapping {
  const mapping = sqliteTypeMapping(column);
  return column.enumValues !== undefined && mapping.kind === 'field' && mapping.type === 'string' ? { kind: 'field', type: 'enum', values: column.enumValues } : mapping;
}

function sqliteTypeMapping(column: IntrospectedColumn): ColumnMapping {
  const declared = column.dataType.trim().toUpperCase();
  const name = declared.replace(/\s*\(.*$/, '');
  if (name === 'BOOLEAN' || name === 'BOOL') return { kind: 'field', type: 'boolean' };
  if (name === 'DATE') return { kind: 'field', type: 'date' };
  if (name === 'DATETIME' || name.startsWith('TIMESTAMP')) return { kind: 'field', type: 'datetime' };
  if (name === 'JSON' || name === 'JSONB') return { kind: 'field', type: 'json' };
  // Numeric affinity by SQLite's rules, but a UUID never converts to a number: it stays text.
  if (name === 'UUID') return { kind: 'field', type: 'string' };
  if (declared.includes('INT')) return { kind: 'field', type: 'integer' };
  // TEXT is how SQLite schemas spell every string: a `string` field, whose values the router
  // reads; a long free text (notes, bodies) is better declared `text` by hand. CLOB says long.
  if (declared.includes('CHAR') || declared.includes('TEXT')) return { kind: 'field', type: 'string' };
  if (declared.includes('CLOB')) return { kind: 'field', type: 'text' };
  if (declared === '' || declared.includes('BLOB')) return unsupported(column);
  if (declared.includes('REAL') || declared.includes('FLOA') || declared.includes('DOUB')) return { kind: 'field', type: 'float' };
  if (name === 'NUMERIC' || name === 'DECIMAL') {
    return { kind: 'field', type: 'float', note: `SQLite has no exact decimals: ${column.dataType} values are stored as floating point` };
  }
  return unsupported(column);
}

// format_type's spelling: "numeric(10,2)", "character varying(80)", "timestamp(3) with time zone",
// "public.citext", "integer[]".
const postgresType = /^(?:(?:"[^"]+"|[a-z_][a-z0-9_$]*)\.)?"?([a-z_][a-z0-9_ $]*?)"?(?:\((\d+)(?:,(\d+))?\))?( with(?:out)? time zone)?(\[\])?$/;

const postgresTypes: Readonly<Record<string, FieldType>> = {
  smallint: 'integer', integer: 'integer', bigint: 'integer',
  real: 'float', 'double precision': 'float',
  // PostgreSQL schemas use text for every string, short or long: see the SQLite note above.
  text: 'string', 'character varying': 'string', character: 'string', bpchar: 'string', citext: 'string', uuid: 'string',
  boolean: 'boolean', date: 'date', timestamp: 'datetime',
  json: 'json', jsonb: 'json',
};

// enumValues: an enum type's labels, or (on a text column) the values of a CHECK (col IN (…)).
function postgresMapping(column: IntrospectedColumn): ColumnMapping {
  if (column.enumValues !== undefined) {
    if (column.enumValues.length === 0) return { kind: 'unsupported', reason: `its enum type ${column.dataType} has no values` };
    return { kind: 'field', type: 'enum', values: column.enumValues };
  }
  const match = postgresType.exec(column.dataType.trim().toLowerCase());
  if (match === null || match[5] !== undefined) return unsupported(column);
  const [, name = '', precision, scale] = match;
  if (name === 'numeric') {
    if (precision === undefined) return { kind: 'field', type: 'decimal', scale: 2, note: 'numeric without a scale: 2 digits after the point is a guess; set the scale the data uses' };
    const digits = Number(scale ?? 0);
    if (digits > maxScale) return { kind: 'unsupported', reason: `Plumb's decimals keep at most ${maxScale} digits after the point, and ${column.dataType} has ${digits}` };
    return { kind: 'field', type: 'decimal', scale: digits };
  }
  const type = postgresTypes[name];
  return type === undefined ? unsupported(column) : { kind: 'field', type };
}

export function mapColumn(dialect: Dialect, column: IntrospectedColumn): ColumnMapping {
  return dialect === 'sqlite' ? sqliteMapping(column) : postgresMapping(column);
}

/** The type of a primary key Plumb can use: an integer id, or a string key (text, varchar, uuid). */
export function keyType(dialect: Dialect, column: IntrospectedColumn): 'integer' | 'string' | undefined {
  const mapping = mapColumn(dialect, column);
  if (mapping.kind !== 'field') return undefined;
  if (mapping.type === 'integer') return 'integer';
  return mapping.type === 'string' || mapping.type === 'text' ? 'string' : undefined;
}

export type DefaultValue = string | number | boolean;

const quoted = /^'((?:[^']|'')*)'(?:::[a-z_][a-z0-9_ ."]*(?:\(\d+(?:,\d+)?\))?)*$/i;
const number = /^\(?([+-]?\d+(?:\.\d+)?)\)?(?:::[a-z_][a-z0-9_ ."]*(?:\(\d+(?:,\d+)?\))?)*$/i;

/**
 * A DEFAULT expression as a Plumb `default`, when it is a literal the field type takes as it is
 * (`'draft'::text`, `0`, `true`); undefined for anything computed (`now()`, a sequence).
 */
export function literalDefault(expression: string, mapping: Extract<ColumnMapping, { kind: 'field' }>): DefaultValue | undefined {
  const source = expression.trim();
  const string = quoted.exec(source)?.[1]?.replace(/''/g, "'");
  const numeric = number.exec(source)?.[1] ?? (string !== undefined && /^[+-]?\d+(?:\.\d+)?$/.test(string) ? string : undefined);
  switch (mapping.type) {
    case 'string':
    case 'text':
      return string;
    case 'enum':
      return string !== undefined && mapping.values?.includes(string) === true ? string : undefined;
    case 'integer': {
      const value = numeric === undefined ? NaN : Number(numeric);
      return Number.isSafeInteger(value) ? value : undefined;
    }
    case 'float':
      return numeric === undefined ? undefined : Number(numeric);
    case 'decimal': {
      if (numeric === undefined) return undefined;
      const places = numeric.split('.')[1]?.replace(/0+$/, '').length ?? 0;
      return places <= (mapping.scale ?? 2) ? numeric.replace(/^\+/, '') : undefined;
    }
    case 'boolean': {
      const word = (string ?? source).toLowerCase();
      if (['true', '1', 't'].includes(word)) return true;
      if (['false', '0', 'f'].includes(word)) return false;
      return undefined;
    }
    case 'date':
      return string !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(string) ? string : undefined;
    default:
      return undefined;
  }
}
