/** A measure field said without its unit: "capacity kg" → "capacity", "distance km" → "distance" ("the capacity of truck 9"). */
const UNIT = /\s+(?:kg|g|km|m|cm|mm|mi|lb|lbs|l|ml|usd|eur|brl|pct|percent|min|mins|h|hrs|hours|days|secs|seconds)$/;

export function unitHead(phrase: string): string | null {
  const head = phrase.replace(UNIT, '');
  return head !== phrase && head.length >= 3 ? head : null;
}
