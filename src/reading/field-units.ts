/** A measure field said without its unit: "capacity kg" → "capacity", "distance km" → "distance" ("the capacity of truck 9"). */
const UNIT = /\s+(?:kg|g|km|m|cm|mm|mi|lb|lbs|l|ml|usd|eur|brl|pct|percent|min|mins|h|hrs|hours|days|secs|seconds)$/;

export function unitHead(phrase: string): string | null {
  const head = phrase.replace(UNIT, '');
  return head !== phrase && head.length >= 3 ? head : null;
}

/** Units written out: the words a person says a field's unit with. */
const UNIT_NAMES: Readonly<Record<string, readonly string[]>> = {
  l: ['litres', 'liters'], ml: ['millilitres', 'milliliters'], kg: ['kilos', 'kilograms', 'kilogrammes'], g: ['grams', 'grammes'], km: ['kilometres', 'kilometers'],
  m: ['metres', 'meters'], cm: ['centimetres', 'centimeters'], mm: ['millimetres', 'millimeters'], mi: ['miles'], lb: ['pounds'], lbs: ['pounds'],
  pct: ['percent'], min: ['minutes'], mins: ['minutes'], h: ['hours'], hrs: ['hours'], secs: ['seconds'],
};

/**
 * A measure field's unit written out, as a person says it: "capacity l" → "capacity in litres" and
 * "litres" alone ("total minutes observed": `durationMin`); none for a field with no unit.
 */
export function unitSayings(phrase: string): string[] {
  const head = unitHead(phrase);
  if (head === null) return [];
  const names = UNIT_NAMES[phrase.slice(head.length).trim()] ?? [];
  return names.flatMap((name) => [`${head} in ${name}`, name]);
}
