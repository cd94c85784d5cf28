/**
 * A cursor or seq as the protocol writes it: a whole number, 0 or more, in plain decimal digits
 * (a JSON number that is one, too). `Number()` alone would take `1e3`, `0x10`, ` 5` and `5.0`:
 * those are undefined here, for the caller to refuse.
 */
export function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}
