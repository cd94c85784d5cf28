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

/** Words of a field's name (English and a few Portuguese stems) that say which scale it measures. */
export const MEASURES: Readonly<Record<'length' | 'height' | 'distance' | 'weight' | 'size' | 'strength' | 'brightness' | 'pay', RegExp>> = {
  length: /^(?:length|distance|km|kms|mi|miles|m|meters|metres|long|duration|minutes|mins|min|hours|hrs|h|seconds|secs|days|comprimento|distancia|duracao|minutos|horas)$/,
  height: /^(?:height|heights|tall|stature|altitude|elevation|altura)$/,
  distance: /^(?:distance|far|km|kms|mi|miles|ly|lightyears|au|pc|parsecs|distancia)$/,
  weight: /^(?:weight|mass|kg|kgs|kilos|g|grams|t|tons|tonnes|lb|lbs|peso|massa)$/,
  // A count of places a row holds ("beds", "seats") is its size: "the smallest ward".
  size: /^(?:size|area|capacity|volume|diameter|width|radius|aperture|m2|sqm|sqft|liters|litres|l|beds|seats|places|berths|tamanho|capacidade|volume|diametro|largura|abertura|leitos|lugares|assentos|vagas)$/,
  strength: /^(?:abv|alcohol|strength|proof|potency|forca|teor)$/,
  brightness: /^(?:brightness|luminosity|lumens|lm|lux|brilho)$/,
  pay: /^(?:rate|salary|wage|wages|pay|earnings|fee|fees|salario|remuneracao)$/,
};
/** An astronomical magnitude: the brighter, the lower. */
export const MAGNITUDE = /^(?:magnitude|mag)$/;

/** The measures a field's name words carry that may name the field alone ("batch size" → `volumeL`). */
const MEASURE_NOUNS = ['size', 'length', 'weight', 'height', 'distance'] as const;

/** The measure nouns a numeric field's words carry and are not already ("volume l" → size). */
export function measureNouns(words: readonly string[]): string[] {
  return MEASURE_NOUNS.filter((noun) => !words.includes(noun) && words.some((w) => MEASURES[noun].test(w)));
}
