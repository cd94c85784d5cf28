/**
 * Words that change the number before them ("2 pi", "10 km", "180 °C", "15 percent"): a number is
 * only its parameter's value when the parameter takes that unit. A parameter takes a unit its name or
 * description names; it refuses one when it names another unit of the same kind ("Distance in
 * miles" and "10 km"); where it names none of that kind, the number is read as typed.
 */
import { fold } from './text.js';

/** Unit → the words that write it (folded, English and Portuguese), by kind. Single letters only written onto the number ("10m"). */
const UNITS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  length: {
    km: ['km', 'kms', 'kilometer', 'kilometers', 'kilometre', 'kilometres', 'quilometro', 'quilometros'],
    m: ['meter', 'meters', 'metre', 'metres', 'metro', 'metros'],
    cm: ['cm', 'centimeter', 'centimeters', 'centimetre', 'centimetres', 'centimetro', 'centimetros'],
    mm: ['mm', 'millimeter', 'millimeters', 'millimetre', 'millimetres', 'milimetro', 'milimetros'],
    mi: ['mile', 'miles', 'milha', 'milhas'],
    ft: ['ft', 'feet', 'foot'],
    in: ['inch', 'inches', 'polegada', 'polegadas'],
    yd: ['yd', 'yard', 'yards', 'jarda', 'jardas'],
  },
  mass: {
    kg: ['kg', 'kgs', 'kilogram', 'kilograms', 'kilo', 'kilos', 'quilo', 'quilos', 'quilograma', 'quilogramas'],
    g: ['gram', 'grams', 'grama', 'gramas'],
    mg: ['mg', 'milligram', 'milligrams', 'miligrama', 'miligramas'],
    lb: ['lb', 'lbs', 'pound', 'pounds', 'libra', 'libras'],
    oz: ['oz', 'ounce', 'ounces', 'onca', 'oncas'],
    t: ['ton', 'tons', 'tonne', 'tonnes', 'tonelada', 'toneladas'],
  },
  temperature: {
    c: ['°c', 'celsius', 'centigrade'],
    f: ['°f', 'fahrenheit'],
    k: ['°k', 'kelvin', 'kelvins'],
  },
  time: {
    s: ['sec', 'secs', 'second', 'seconds', 'segundo', 'segundos'],
    min: ['min', 'mins', 'minute', 'minutes', 'minuto', 'minutos'],
    h: ['hr', 'hrs', 'hour', 'hours', 'hora', 'horas'],
    day: ['day', 'days', 'dia', 'dias'],
    week: ['week', 'weeks', 'semana', 'semanas'],
    month: ['month', 'months', 'mes', 'meses'],
    year: ['year', 'years', 'ano', 'anos'],
  },
  volume: {
    l: ['liter', 'liters', 'litre', 'litres', 'litro', 'litros'],
    ml: ['ml', 'milliliter', 'milliliters', 'millilitre', 'millilitres', 'mililitro', 'mililitros'],
    gal: ['gallon', 'gallons', 'galao', 'galoes'],
  },
  angle: {
    deg: ['degree', 'degrees', 'grau', 'graus', '°'],
    rad: ['radian', 'radians', 'radiano', 'radianos'],
  },
  // Not a unit but a factor no number typed beside it carries: taken only by a parameter that names it.
  factor: { pi: ['pi', 'π'] },
};

/** Units written onto a number ("298K", "10km") as the unit they are. */
const SUFFIXES: Readonly<Record<string, string>> = { k: 'k', c: 'c', f: 'f', '°c': 'c', '°f': 'f', '°k': 'k', m: 'm', s: 's', h: 'h', g: 'g', l: 'l', mi: 'mi', in: 'in', hrs: 'h', hr: 'h' };

interface Unit {
  readonly kind: string;
  readonly unit: string;
}

const BY_WORD = new Map<string, Unit>();
for (const [kind, units] of Object.entries(UNITS)) for (const [unit, words] of Object.entries(units)) for (const word of words) BY_WORD.set(word, { kind, unit });
/** A temperature written "degrees Celsius" is the temperature, not the angle. */
const DEGREES = new Set(['degree', 'degrees', 'grau', 'graus', '°']);

export interface UnitAfter extends Unit {
  /** Where the unit's words end in the turn. */
  readonly end: number;
}

const WORD = /^\s*(°\s?[cfk](?![a-z])|°|π|[a-z]+)/;

/** The unit written right after a number that ends at `end` in the folded turn ("10 km", "180 degrees Celsius", "2 pi"), or null. */
export function unitAfter(folded: string, end: number): UnitAfter | null {
  const first = WORD.exec(folded.slice(end));
  if (first === null) return null;
  const word = (first[1] ?? '').replace(/\s/g, '');
  const unit = BY_WORD.get(word);
  if (unit === undefined) return null;
  if (DEGREES.has(word)) {
    const second = WORD.exec(folded.slice(end + first[0].length));
    const temperature = second === null ? undefined : BY_WORD.get((second[1] ?? '').replace(/\s/g, ''));
    if (temperature?.kind === 'temperature') return { ...temperature, end: end + first[0].length + (second?.[0].length ?? 0) };
  }
  return { ...unit, end: end + first[0].length };
}

/** The unit a suffix written onto a number names ("10km" → km), or null for one the table does not know. */
export function unitOfSuffix(suffix: string): Unit | null {
  const word = suffix.toLowerCase();
  const direct = BY_WORD.get(word);
  if (direct !== undefined) return direct;
  const short = SUFFIXES[word];
  if (short === undefined) return null;
  for (const [kind, units] of Object.entries(UNITS)) if (short in units) return { kind, unit: short };
  return null;
}

/** The units a parameter's name and description name, by kind. */
export function namedUnits(name: string, description: string): ReadonlyMap<string, ReadonlySet<string>> {
  const out = new Map<string, Set<string>>();
  const words = `${name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.]/g, ' ')} ${fold(description)}`.toLowerCase().match(/°\s?[cfk](?![a-z])|π|[a-z]+/g) ?? [];
  words.forEach((raw, i) => {
    const word = raw.replace(/\s/g, '');
    // A single letter of a name or description is a unit only as a symbol ("°C"), never as a word ("a", "m").
    const unit = BY_WORD.get(word);
    if (unit === undefined) return;
    const next = BY_WORD.get(words[i + 1] ?? '');
    const kept = DEGREES.has(word) && next?.kind === 'temperature' ? next : unit;
    const set = out.get(kept.kind) ?? new Set<string>();
    set.add(kept.unit);
    out.set(kept.kind, set);
  });
  return out;
}

/** Whether a parameter with these named units takes a number written with `unit`. */
export function takesUnit(named: ReadonlyMap<string, ReadonlySet<string>>, unit: Unit): boolean {
  const same = named.get(unit.kind);
  if (unit.kind === 'factor') return same?.has(unit.unit) === true;
  return same === undefined || same.has(unit.unit);
}
