/**
 * The fields a row is called by, best first: what an answer names a row with ("Daniel Lee's country",
 * never "country of 2") and what a reader shows beside an attribute asked of it.
 */
export const DISPLAY_FIELDS: readonly string[] = ['name', 'title', 'label', 'fullName', 'full_name', 'displayName', 'display_name', 'plate', 'code', 'sku', 'number'];

/** The first display field among `has`; null when a row has none. */
export function displayFieldOf(has: (field: string) => boolean): string | null {
  return DISPLAY_FIELDS.find(has) ?? null;
}
