/**
 * A ranking two fields could carry as well ("the oldest trailer": built year or purchased on) asks
 * which, naming the fields, instead of picking one.
 */
import type { DataStep } from '../router/index.js';
import type { CompiledReads } from './compile-reads.js';
import { identifierPhrase } from './data-vocabulary.js';
import type { ReadTarget } from './meanings.js';

export function chooseStep(reads: CompiledReads, target: ReadTarget, fields: readonly string[], text: string): DataStep {
  const names = fields.map((field) => `"${labelOf(reads, target, field)}"`);
  const list = `${names.slice(0, -1).join(', ')} ${reads.language === 'pt-BR' ? 'ou' : 'or'} ${names.at(-1) ?? ''}`;
  const question = reads.language === 'pt-BR' ? `"${text}" por qual campo: ${list}?` : `"${text}" by which field: ${list}?`;
  return { kind: 'ask', decidedBy: `Q4 ranking field ${fields.join(' or ')}`, question, candidates: [target.tool] };
}

/** A field in the person's words: its name in English; in Portuguese its shortest word, where it has one. */
function labelOf(reads: CompiledReads, target: ReadTarget, field: string): string {
  const name = identifierPhrase(field);
  if (reads.language === 'en') return name;
  const words = (reads.fieldWords.get(`${target.spec.manager}.${field}`) ?? []).filter((w) => w !== name && !w.startsWith(`${name} `));
  return words.sort((a, b) => a.length - b.length)[0] ?? name;
}
