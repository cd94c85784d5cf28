import type { ChatMessage, ToolDefinition } from '../../providers/index.js';
import type { ItemRecord } from '../../store/index.js';
import { itemText, toolCallOf, toolResultOf } from '../shared/index.js';

/** The BPE encodings of OpenAI's models that `gpt-tokenizer` counts offline. */
export type OpenAiEncoding = 'o200k_base' | 'cl100k_base';

/**
 * The encoding an OpenAI-family model name uses (a routed name such as `openai/gpt-4o` too):
 * `o200k_base` for the GPT-4o, 4.1, 4.5, 5 and o-series lines and gpt-oss, `cl100k_base` for
 * GPT-4 and GPT-3.5; undefined for any other model.
 */
export function openAiEncodingOf(model: string): OpenAiEncoding | undefined {
  const name = model.toLowerCase().replace(/^openai\//, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|chatgpt-4o|o[134](-|$))/.test(name)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5)/.test(name)) return 'cl100k_base';
  return undefined;
}

const nonAscii = /[\u0080-\uffff]/;

/**
 * A model-free estimate: four ASCII characters to a token, and every other UTF-16 unit a token of
 * its own (about right for CJK, generous for accented Latin). Generous is the safe side: the
 * calibration from reported usage brings it down.
 */
export function heuristicTokens(text: string): number {
  // Most text is ASCII: one native scan answers it, instead of a loop over every unit.
  if (!nonAscii.test(text)) return Math.ceil(text.length / 4);
  let other = 0;
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 127) other++;
  return Math.ceil((text.length - other) / 4 + other);
}

/** What each message costs beyond its text (role and framing), as OpenAI's chat format counts it. */
export const perMessage = 4;
/** A tool call's framing (its id and type) beyond its name and arguments. */
const perCall = 8;
/** Texts `repeated` remembers (a system prompt and a summary per thread in flight, roughly). */
const maxRepeated = 64;
/** Calibration ignores requests smaller than this: a provider's fixed overhead would dominate the ratio. */
const minCalibrationTokens = 64;

/**
 * Token estimates for one engine's model: `gpt-tokenizer`'s exact count for OpenAI-family models,
 * the heuristic for the rest, each multiplied by a calibration factor that follows what the
 * provider reports (`observe`). Raw counts of journal items are kept per item object (items never
 * change), so a long thread is not counted again each round.
 */
export class TokenEstimator {
  readonly encoding: OpenAiEncoding | undefined;
  #count: (text: string) => number = heuristicTokens;
  #loading: Promise<void> | undefined;
  readonly #items = new WeakMap<ItemRecord, number>();
  readonly #tools = new WeakMap<readonly ToolDefinition[], number>();
  readonly #repeated = new Map<string, number>();
  #factor = 1;
  #samples = 0;

  constructor(model: string) {
    this.encoding = openAiEncodingOf(model);
  }

  /**
   * Loads the encoding's tables the first time they are needed (megabytes of BPE ranks: never at
   * startup, and never for a model that does not use them). Without the package, the heuristic stays.
   */
  ready(): Promise<void> | undefined {
    if (this.encoding === undefined) return undefined;
    this.#loading ??= loadEncoding(this.encoding).then(
      (count) => {
        this.#count = count;
      },
      () => undefined,
    );
    return this.#loading;
  }

  /** The calibration factor: reported input tokens per estimated token, smoothed. 1 until a provider reported. */
  get factor(): number {
    return this.#factor;
  }

  /** Raw tokens of a text. */
  text(text: string): number {
    return this.#count(text);
  }

  /** Raw tokens of a text sent again and again (the system prompt, the summary), kept for the last few such texts. */
  repeated(text: string): number {
    const known = this.#repeated.get(text);
    if (known !== undefined) return known;
    if (this.#repeated.size >= maxRepeated) this.#repeated.clear();
    const tokens = this.#count(text);
    this.#repeated.set(text, tokens);
    return tokens;
  }

  /** Raw tokens a journal item costs as a model message (0 for items that are not messages). */
  item(item: ItemRecord): number {
    const known = this.#items.get(item);
    if (known !== undefined) return known;
    let tokens = 0;
    switch (item.kind) {
      case 'user_text':
      case 'assistant_text':
        tokens = perMessage + this.#count(itemText(item));
        break;
      case 'tool_call': {
        const call = toolCallOf(item);
        tokens = perCall + this.#count(call.name) + this.#count(call.arguments);
        break;
      }
      case 'tool_result': {
        const result = toolResultOf(item);
        tokens = perMessage + this.#count(result.name) + this.#count(JSON.stringify(result.result) ?? 'null');
        break;
      }
      default:
        break;
    }
    this.#items.set(item, tokens);
    return tokens;
  }

  /** Raw tokens of messages as they are sent. */
  messages(messages: readonly ChatMessage[]): number {
    let tokens = 0;
    for (const message of messages) {
      tokens += perMessage;
      if (message.role === 'tool') tokens += this.#count(message.name) + this.#count(JSON.stringify(message.result) ?? 'null');
      else tokens += this.#count(message.content);
      if (message.role === 'assistant' && message.toolCalls !== undefined) {
        for (const call of message.toolCalls) tokens += perCall + this.#count(call.name) + this.#count(call.arguments);
      }
    }
    return tokens;
  }

  /** Raw tokens of a tool list as the provider renders it (its JSON), kept per list. */
  tools(definitions: readonly ToolDefinition[]): number {
    if (definitions.length === 0) return 0;
    const known = this.#tools.get(definitions);
    if (known !== undefined) return known;
    const tokens = this.#count(JSON.stringify(definitions));
    this.#tools.set(definitions, tokens);
    return tokens;
  }

  /** A raw count corrected by the calibration factor. */
  calibrated(raw: number): number {
    return Math.ceil(raw * this.#factor);
  }

  /**
   * A provider reported `reportedInput` tokens for a request estimated at `raw`: the factor moves
   * toward their ratio (the first report sets it; later ones weigh 30%), within [0.25, 4].
   */
  observe(raw: number, reportedInput: number): void {
    if (raw < minCalibrationTokens || !(reportedInput > 0)) return;
    const ratio = Math.min(4, Math.max(0.25, reportedInput / raw));
    this.#factor = this.#samples === 0 ? ratio : this.#factor * 0.7 + ratio * 0.3;
    this.#samples++;
  }
}

async function loadEncoding(encoding: OpenAiEncoding): Promise<(text: string) => number> {
  // Separate literal specifiers, so that each loads only when its models are used.
  const module = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
  const countTokens = module.countTokens;
  return (text) => (text === '' ? 0 : countTokens(text));
}
