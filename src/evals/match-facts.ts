/**
 * Whether an answer states a fact: the fact's text appears as a whole, not inside a longer word or
 * number ("4" is not found in "4411" nor in "4.20"; "Bolt" is not found in "Bolts"). Case counts.
 * A number or a date written as the seed stores it is also found written for a locale, as answers
 * write them: `30100` as "30,100" or "30.100", `19.40` as "19,40", `2027-01-08` as "Jan 8, 2027" or
 * "08/01/2027", `2026-12-03T14:00:00Z` with its time after the date.
 */
export function containsFact(answer: string, fact: string): boolean {
  return formsOf(fact).some((form) => new RegExp(`(?<![\\p{L}\\p{N}]|\\p{N}[.,])${escape(form)}(?![\\p{L}\\p{N}]|[.,]\\p{N})`, 'u').test(answer));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The fact as written, and the same value as an English or a Brazilian Portuguese answer writes it. */
function formsOf(fact: string): string[] {
  const forms = [fact];
  const number = /^(-?)(\d+)(?:\.(\d+))?$/.exec(fact);
  if (number !== null) {
    const [, sign = '', whole = '', fraction] = number;
    const group = (separator: string): string => whole.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
    forms.push(`${sign}${group(',')}${fraction === undefined ? '' : `.${fraction}`}`, `${sign}${group('.')}${fraction === undefined ? '' : `,${fraction}`}`);
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(fact);
  if (date !== null) {
    const [, y, mo, d, h, mi] = date as unknown as [string, string, string, string, string | undefined, string | undefined];
    const time = h === undefined ? '' : `, ${h}:${mi ?? '00'}`;
    forms.push(`${MONTHS[Number(mo) - 1] ?? mo} ${Number(d)}, ${y}${time}`, `${d}/${mo}/${y}${time}`);
  }
  return [...new Set(forms)];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
