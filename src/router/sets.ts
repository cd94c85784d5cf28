/**
 * A set asked about is no single row: "show me the orders of Ana Souza" names orders in the plural
 * and gives no order number, so asking "which order id?" would answer another question. Such a clause
 * is unread (the person is asked to rephrase, or a model takes it), never asked for one identity.
 */
import { looksLikeIdentifier } from './parameter-kinds.js';
import type { CompiledParameter, CompiledTool } from './compile.js';

/** The identifier parameter the clause names in the plural without a value for it, or null. */
export function setWithoutIdentity(tool: CompiledTool, folded: string, filled: Readonly<Record<string, unknown>>): CompiledParameter | null {
  const plural = (phrase: string): boolean => /[a-z]s$/.test(phrase) && !/ss$/.test(phrase);
  const namedPlural = tool.triggers.all(folded).some((m) => plural(m.phrase));
  for (const p of tool.parameters) {
    if (!p.info.required || p.info.name in filled) continue;
    if (!looksLikeIdentifier(p.info.name) && p.pattern === null) continue;
    if (namedPlural || p.cues.all(folded).some((m) => plural(m.phrase))) return p;
  }
  return null;
}
