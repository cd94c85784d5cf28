import pg from 'pg';
import type { CustomTypesConfig } from 'pg';
import { PlumbError } from '../core/index.js';

/**
 * How Plumb reads PostgreSQL's text output: given to every query (and to the pool Plumb creates),
 * never installed into pg's global parsers, which the host's own code may rely on.
 */

const oids = { int8: 20, json: 114, date: 1082, timestamp: 1114, timestamptz: 1184, numeric: 1700, jsonb: 3802 } as const;

function int8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new PlumbError('number_out_of_range', `PostgreSQL returned the integer ${text}, beyond what a JavaScript number holds exactly (±${Number.MAX_SAFE_INTEGER}).`, {
      details: { value: text },
    });
  }
  return value;
}

// ISO DateStyle output: "2026-01-10 08:00:00.123456+05:30" (timestamptz) or without the offset (timestamp).
const timestampPattern = /^(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

/** RFC 3339 in UTC with milliseconds; a timestamp without a zone is read as UTC. `infinity` and BC dates stay as written. */
function timestamp(text: string): string {
  const match = timestampPattern.exec(text);
  if (match === null) return text;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours = '0', offsetMinutes = '0', offsetSeconds = '0'] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day)); // not Date.UTC, which reads years 0–99 as 1900–1999
  date.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.padEnd(3, '0').slice(0, 3)));
  if (sign !== undefined) {
    const offset = ((Number(offsetHours) * 60 + Number(offsetMinutes)) * 60 + Number(offsetSeconds)) * 1000;
    date.setTime(date.getTime() - (sign === '-' ? -offset : offset));
  }
  return date.toISOString();
}

const asText = (text: string): string => text;

const parsers = new Map<number, (text: string) => unknown>([
  [oids.int8, int8],
  [oids.numeric, asText],
  [oids.date, asText],
  [oids.timestamp, timestamp],
  [oids.timestamptz, timestamp],
  [oids.json, asText],
  [oids.jsonb, asText],
]);

export const postgresTypeParsers: CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): ((text: string) => unknown) => {
    const own = format === 'binary' ? undefined : parsers.get(oid);
    return own ?? (pg.types.getTypeParser(oid, format) as (text: string) => unknown);
  },
};
