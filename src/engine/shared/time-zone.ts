/** The router's `now` in a host's time zone: RFC 3339 with that zone's offset at that instant. */

const formats = new Map<string, Intl.DateTimeFormat>();

/** An IANA time zone name the runtime knows (`Europe/Lisbon`, `UTC`). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '') return false;
  try {
    formatIn(zone);
    return true;
  } catch {
    return false;
  }
}

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(zone, format);
  }
  return format;
}

/** `ms` as RFC 3339 at seconds precision in `zone` (`2026-10-19T09:00:00+01:00`; `Z` for UTC itself). */
export function rfc3339In(ms: number, zone: string): string {
  const whole = Math.floor(ms / 1000) * 1000;
  if (zone === 'UTC') return `${new Date(whole).toISOString().slice(0, 19)}Z`;
  const parts: Record<string, string> = {};
  for (const part of formatIn(zone).formatToParts(new Date(whole))) parts[part.type] = part.value;
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  const offsetMinutes = Math.round((Date.parse(`${local}Z`) - whole) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
