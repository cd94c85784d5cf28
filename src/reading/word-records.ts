/**
 * What each span of a read clause matched, as `DataReading.words`: the schema name it is (a manager,
 * a field, a value), the schema name a derived word came from (a relation verb, a demonym, a place
 * word), a number, a date, or the grammar word it is. A reading can so be explained word by word.
 */
import type { DataWord } from '../router/index.js';
import { foldPhrase } from '../router/index.js';
import type { CompiledReads } from './compile-reads.js';
import type { Meaning } from './meanings.js';
import type { Span } from './spans.js';

export function wordRecords(reads: CompiledReads, spans: readonly Span[]): DataWord[] {
  return spans.map((span) => {
    const derived = reads.derived.get(foldPhrase(span.text)) ?? [];
    const matched: string[] = [];
    if (span.number !== null) matched.push(`number ${span.number}`);
    if (span.date !== null) matched.push(`date ${span.date.fromDay ?? span.date.from ?? ''}–${span.date.toDay ?? span.date.to ?? ''}`);
    if (span.adjective !== null) matched.push(`adjective ${span.adjective}`);
    for (const meaning of span.meanings) {
      const from = derived.find((d) => JSON.stringify(d.meaning) === JSON.stringify(meaning))?.from;
      matched.push(from === undefined ? describeMeaning(meaning) : `${describeMeaning(meaning)} (${from})`);
    }
    return { text: span.text, start: span.start, end: span.end, matched };
  });
}

/** A meaning in words, for `DataReading.words` and `plumb route --explain`. */
export function describeMeaning(meaning: Meaning): string {
  switch (meaning.kind) {
    case 'manager': return `manager ${meaning.manager}`;
    case 'field': return `field ${meaning.manager}.${meaning.field}`;
    case 'value': return `value ${meaning.manager}.${meaning.field} = ${meaning.value}`;
    case 'verb': return `verb joining ${meaning.sides.join(' and ')} through ${meaning.via}`;
    case 'agentField': return `verb of field ${meaning.manager}.${meaning.field}`;
    case 'place': return 'place word';
    default: return `grammar ${meaning.kind}`;
  }
}
