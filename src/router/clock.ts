import { PlumbError } from '../core/index.js';

/**
 * The host's clock as the router reads it: local civil time (milliseconds, as if UTC) and the
 * offset it was written in. Every period is computed in local time and written back in that offset.
 */
export interface HostClock {
  readonly local: number;
  readonly offsetMinutes: number;
  readonly offset: string;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/;
export const DAY = 86_400_000;
export const HOUR = 3_600_000;

export function readClock(now: string): HostClock {
  const match = RFC3339.exec(now);
  if (match === null) {
    throw new PlumbError('router_invalid_context', `context.now '${now}' is not an RFC 3339 date-time with an offset, such as 2026-10-19T09:00:00+01:00.`);
  }
  const [, y, mo, d, h, mi, s, off] = match as unknown as [string, string, string, string, string, string, string | undefined, string];
  const offset = off === 'Z' || off === 'z' ? '+00:00' : off;
  const sign = offset.startsWith('-') ? -1 : 1;
  const offsetMinutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? '0'));
  if (Number.isNaN(local) || new Date(local).getUTCDate() !== Number(d)) {
    throw new PlumbError('router_invalid_context', `context.now '${now}' is not a real date.`);
  }
  return { local, offsetMinutes, offset };
}

export function startOfDay(local: number): number {
  return Math.floor(local / DAY) * DAY;
}

/** 0 = Monday … 6 = Sunday. */
export function isoWeekday(local: number): number {
  return (new Date(local).getUTCDay() + 6) % 7;
}

export function addMonths(local: number, months: number): number {
  const date = new Date(local);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `2026-10-22T12:00:00+01:00`: a local time written with the clock's offset. */
export function formatDateTime(local: number, clock: HostClock): string {
  const d = new Date(local);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${clock.offset}`;
}

/** `2026-10-22`. */
export function formatDate(local: number): string {
  const d = new Date(local);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}
