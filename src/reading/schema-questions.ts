/**
 * Questions about the schema itself, answered from the schema index through the discovery tools:
 * what the assistant can see (`search_managers` over every exposed manager), which fields a manager
 * has (`get_manager_schema`), how two managers are related (`find_path`). Read only where the
 * catalogue holds the tool, and only in the wordings below.
 */
import type { JsonObject } from '../core/index.js';
import type { Language } from '../router/index.js';
import { escapePhrase } from '../router/index.js';
import type { CompiledReads } from './compile-reads.js';

export interface SchemaCall {
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly decidedBy: string;
}

/** At most this many managers are listed by one `search_managers` call (its own bound). */
const SEARCH_LIMIT = 10;

const END = String.raw`\s*[?.!]*\s*$`;

interface Patterns {
  readonly see: readonly RegExp[];
  readonly fields: (m: string) => RegExp[];
  readonly related: (m: string) => RegExp[];
}

const PATTERNS: Readonly<Record<Language, Patterns>> = {
  en: {
    see: [
      new RegExp(String.raw`^(?:so\s+)?(?:what|which)\s+(?:kinds?\s+of\s+|types?\s+of\s+|sorts?\s+of\s+)?(?:data|information|things|records|tables)\s+(?:can|do|could)\s+you\s+(?:see|read|access|show(?:\s+me)?|know\s+about|have)${END}`),
      new RegExp(String.raw`^what\s+(?:can|do)\s+you\s+(?:see|read|know\s+about|access)${END}`),
      new RegExp(String.raw`^what\s+(?:data|information)\s+(?:is\s+there|do\s+you\s+have|is\s+available)${END}`),
      new RegExp(String.raw`^what\s+can\s+i\s+ask(?:\s+you)?(?:\s+about)?${END}`),
    ],
    fields: (m) => [
      new RegExp(String.raw`^(?:which|what)\s+(?:fields|columns|attributes|properties|details)\s+(?:does|do)\s+(?:an?\s+|the\s+)?(?<a>${m})\s+have${END}`),
      new RegExp(String.raw`^(?:which|what)\s+(?:fields|columns|attributes|properties)\s+(?:are\s+there\s+)?(?:on|for|of|in)\s+(?:an?\s+|the\s+)?(?<a>${m})${END}`),
      new RegExp(String.raw`^what\s+(?:information|data|details)\s+do\s+you\s+have\s+(?:about|on)\s+(?:the\s+)?(?<a>${m})${END}`),
      new RegExp(String.raw`^(?:describe|explain)\s+(?:the\s+)?(?<a>${m})${END}`),
    ],
    related: (m) => [
      new RegExp(String.raw`^how\s+(?:are|is)\s+(?:the\s+)?(?<a>${m})\s+and\s+(?:the\s+)?(?<b>${m})\s+(?:related|connected|linked)${END}`),
      new RegExp(String.raw`^how\s+(?:are|is)\s+(?:the\s+)?(?<a>${m})\s+(?:related|connected|linked)\s+to\s+(?:the\s+)?(?<b>${m})${END}`),
      new RegExp(String.raw`^what\s+is\s+the\s+(?:relation|relationship|link|connection)\s+between\s+(?:the\s+)?(?<a>${m})\s+and\s+(?:the\s+)?(?<b>${m})${END}`),
    ],
  },
  'pt-BR': {
    see: [
      new RegExp(String.raw`^(?:quais|que)\s+(?:tipos\s+de\s+)?(?:dados|informacoes|coisas|registros|tabelas)\s+(?:voce\s+)?(?:consegue\s+|pode\s+)?(?:ver|ler|acessar|mostrar)${END}`),
      new RegExp(String.raw`^o\s+que\s+(?:voce\s+)?(?:consegue|pode)\s+(?:ver|ler|acessar)${END}`),
      new RegExp(String.raw`^(?:quais|que)\s+dados\s+(?:voce\s+)?tem${END}`),
    ],
    fields: (m) => [
      new RegExp(String.raw`^(?:quais|que)\s+(?:sao\s+os\s+)?campos\s+(?:um\s+|uma\s+|o\s+|a\s+)?(?<a>${m})\s+(?:tem|possui)${END}`),
      new RegExp(String.raw`^(?:quais|que)\s+(?:sao\s+os\s+)?campos\s+(?:tem\s+|possui\s+)?(?:de\s+|do\s+|da\s+|dos\s+|das\s+)(?:um\s+|uma\s+)?(?<a>${m})${END}`),
      new RegExp(String.raw`^(?:que|quais)\s+informacoes\s+(?:voce\s+)?tem\s+(?:sobre|de)\s+(?:os\s+|as\s+|o\s+|a\s+)?(?<a>${m})${END}`),
    ],
    related: (m) => [
      new RegExp(String.raw`^como\s+(?:os\s+|as\s+)?(?<a>${m})\s+e\s+(?:os\s+|as\s+)?(?<b>${m})\s+se\s+(?:relacionam|ligam|conectam)${END}`),
      new RegExp(String.raw`^qual\s+(?:e\s+)?a\s+relacao\s+entre\s+(?:os\s+|as\s+)?(?<a>${m})\s+e\s+(?:os\s+|as\s+)?(?<b>${m})${END}`),
    ],
  },
};

/** A compiled matcher for one language, over the reader's manager words. */
export interface SchemaQuestions {
  read(folded: string): SchemaCall | null;
}

export function compileSchemaQuestions(reads: CompiledReads): SchemaQuestions | null {
  const tools = reads.schemaTools;
  if (tools.search === null && tools.schema === null && tools.path === null) return null;
  const byWord = new Map<string, string>();
  for (const [manager, words] of reads.managerWords) if (reads.targets.has(manager)) for (const word of words) byWord.set(word, manager);
  const alternation = [...byWord.keys()].sort((a, b) => b.length - a.length).map(escapePhrase).join('|');
  if (alternation.length === 0) return null;
  const patterns = PATTERNS[reads.language];
  const fields = patterns.fields(alternation);
  const related = patterns.related(alternation);
  const managers = [...reads.targets.keys()].sort();
  const manager = (word: string | undefined): string | undefined => (word === undefined ? undefined : byWord.get(word.replace(/\s+/g, ' ')));
  return {
    read(folded): SchemaCall | null {
      const text = folded.trim();
      if (tools.search !== null && managers.length <= SEARCH_LIMIT && patterns.see.some((p) => p.test(text))) {
        return { tool: tools.search, arguments: { query: managers.join(' ') }, decidedBy: 'D4 schema managers' };
      }
      if (tools.schema !== null) {
        for (const pattern of fields) {
          const found = manager(pattern.exec(text)?.groups?.['a']);
          if (found !== undefined) return { tool: tools.schema, arguments: { manager: found }, decidedBy: `D4 schema fields ${found}` };
        }
      }
      if (tools.path !== null) {
        for (const pattern of related) {
          const groups = pattern.exec(text)?.groups;
          const a = manager(groups?.['a']);
          const b = manager(groups?.['b']);
          if (a !== undefined && b !== undefined && a !== b) return { tool: tools.path, arguments: { from_manager: a, to_manager: b }, decidedBy: `D4 schema path ${a} ${b}` };
        }
      }
      return null;
    },
  };
}
