import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { PlumbError, canonicalJson } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import { abortableSleep } from '../abortable-sleep.js';
import { ProviderError, classifyHttpFailure, streamCut } from '../provider-error.js';
import type { ChatMessage, CompletionRequest, Provider, ProviderCheck, ProviderEvent, ProviderSettingsView, ToolDefinition } from '../protocol.js';
import { scriptSchema } from './script-schema.js';
import type { Script, ScriptInput, ScriptedCompletion, ScriptedWhen } from './script-schema.js';

/** How many requests a scripted provider remembers for inspection. */
const MAX_RECORDED_REQUESTS = 1000;

/** What the scripted provider saw in one round (for test assertions). */
export interface ScriptedRequest {
  readonly round: number;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly maxOutputTokens: number | undefined;
  /** The `name` (or index) of the completion chosen, or undefined when none matched. */
  readonly completion: string | undefined;
}

export interface ScriptedProvider extends Provider {
  readonly name: 'scripted';
  /** The last 1,000 requests, oldest first. */
  readonly requests: readonly ScriptedRequest[];
  /** Completions not yet used (repeatable ones included). */
  remaining(): number;
  /** Makes every completion available again and forgets the recorded requests. */
  reset(): void;
}

/**
 * A provider that plays a script: one completion per round, in order, skipping completions whose
 * `when` does not match the request. Accepts the script itself or the path of a JSON/YAML file.
 */
export function createScriptedProvider(source: ScriptInput | string): ScriptedProvider {
  const script = typeof source === 'string' ? loadScript(source) : validateScript(source, 'the script');
  return new ScriptPlayer(script);
}

/** Reads and validates a JSON or YAML script file. */
export function loadScript(path: string): Script {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new PlumbError('provider_script_invalid', `Cannot read the provider script '${path}': ${(error as Error).message}.`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw new PlumbError('provider_script_invalid', `The provider script '${path}' is neither JSON nor YAML: ${(error as Error).message}.`, { cause: error });
  }
  return validateScript(parsed, `'${path}'`);
}

function validateScript(value: unknown, where: string): Script {
  const result = scriptSchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
  throw new PlumbError('provider_script_invalid', `The provider script ${where} is invalid: ${problems}.`, {
    details: { issues: result.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })) },
  });
}

class ScriptPlayer implements ScriptedProvider {
  readonly name = 'scripted' as const;
  readonly model: string;
  readonly #script: Script;
  readonly #used: boolean[];
  readonly #requests: ScriptedRequest[] = [];
  #round = 0;

  constructor(script: Script) {
    this.#script = script;
    this.model = script.model;
    this.#used = script.completions.map(() => false);
  }

  get requests(): readonly ScriptedRequest[] {
    return this.#requests;
  }

  remaining(): number {
    return this.#script.completions.filter((completion, index) => completion.repeat || !this.#used[index]).length;
  }

  reset(): void {
    this.#used.fill(false);
    this.#requests.length = 0;
    this.#round = 0;
  }

  checkConfiguration(): readonly ProviderCheck[] {
    return [];
  }

  describe(): ProviderSettingsView {
    return { name: this.name, model: this.model };
  }

  complete(request: CompletionRequest): AsyncIterable<ProviderEvent> {
    this.#round += 1;
    const round = this.#round;
    let index = this.#pick(request.messages);
    if (index === -1 && this.#script.loop && this.#used.some(Boolean)) {
      this.#used.fill(false);
      index = this.#pick(request.messages);
    }
    const completion = index === -1 ? undefined : this.#script.completions[index];
    if (completion !== undefined && !completion.repeat) this.#used[index] = true;
    if (this.#requests.length === MAX_RECORDED_REQUESTS) this.#requests.shift();
    this.#requests.push({
      round,
      messages: request.messages,
      tools: request.tools,
      maxOutputTokens: request.maxOutputTokens,
      completion: completion === undefined ? undefined : (completion.name ?? String(index)),
    });
    if (completion === undefined) {
      const error = new PlumbError(
        'provider_script_exhausted',
        `The scripted provider has no completion for round ${round}: all ${this.#script.completions.length} are used or their 'when' does not match.`,
        { details: { round } },
      );
      return failing(error);
    }
    return play(completion, round, request.signal);
  }

  #pick(messages: readonly ChatMessage[]): number {
    const completions = this.#script.completions;
    for (let index = 0; index < completions.length; index++) {
      const completion = completions[index];
      if (completion === undefined || (this.#used[index] === true && !completion.repeat)) continue;
      if (completion.when === undefined || matches(completion.when, messages)) return index;
    }
    return -1;
  }
}

function failing(error: Error): AsyncIterable<ProviderEvent> {
  return {
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
  };
}

async function* play(completion: ScriptedCompletion, round: number, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
  await abortableSleep(completion.delayMs, signal);
  if (completion.error !== undefined) throw scriptedFailure(completion.error);
  const chunks = completion.text === undefined ? [] : typeof completion.text === 'string' ? [completion.text] : completion.text;
  const cut = completion.cutAfterChunks;
  let emitted = 0;
  for (const chunk of chunks) {
    if (cut !== undefined && emitted >= cut) throw streamCut('scripted', 'its terminal event');
    if (emitted > 0) await abortableSleep(completion.chunkDelayMs, signal);
    emitted += 1;
    yield { type: 'text', text: chunk };
  }
  for (const [index, call] of completion.toolCalls.entries()) {
    if (cut !== undefined && emitted >= cut) throw streamCut('scripted', 'its terminal event');
    if (emitted > 0) await abortableSleep(completion.chunkDelayMs, signal);
    emitted += 1;
    yield {
      type: 'tool_call',
      id: call.id ?? `call_${round}_${index}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    };
  }
  if (cut !== undefined) throw streamCut('scripted', 'its terminal event');
  signal.throwIfAborted();
  yield { type: 'usage', inputTokens: completion.usage?.inputTokens ?? 0, outputTokens: completion.usage?.outputTokens ?? 0 };
  yield { type: 'done', finishReason: completion.finishReason ?? (completion.toolCalls.length > 0 ? 'tool_calls' : 'stop') };
}

function scriptedFailure(error: NonNullable<ScriptedCompletion['error']>): ProviderError {
  if (error.code !== undefined) {
    return new ProviderError(error.code, error.message, { provider: 'scripted', status: error.status, providerMessage: error.message, retryAfterSeconds: error.retryAfterSeconds });
  }
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return classifyHttpFailure({
    provider: 'scripted',
    status: error.status ?? 500,
    headers,
    body: JSON.stringify({ error: { message: error.message } }),
  });
}

/** The tool results at the end of the history (the answers to the last assistant's calls). */
function trailingToolResults(messages: readonly ChatMessage[]): Extract<ChatMessage, { role: 'tool' }>[] {
  const results: Extract<ChatMessage, { role: 'tool' }>[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'tool') break;
    results.unshift(message);
  }
  return results;
}

function errorCodeOf(result: JsonValue): string | undefined | null {
  if (typeof result !== 'object' || result === null || Array.isArray(result) || !('error' in result)) return null;
  const error = result.error;
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return undefined;
  const code = (error as { readonly [key: string]: JsonValue }).code;
  return typeof code === 'string' ? code : undefined;
}

function matches(when: ScriptedWhen, messages: readonly ChatMessage[]): boolean {
  const results = trailingToolResults(messages);
  if (when.toolName !== undefined && !results.some((result) => result.name === when.toolName)) return false;
  if (when.toolResultContains !== undefined) {
    const needle = when.toolResultContains;
    if (!results.some((result) => canonicalJson(result.result).includes(needle))) return false;
  }
  if (when.error !== undefined) {
    const codes = results.map((result) => errorCodeOf(result.result));
    const anyError = codes.some((code) => code !== null);
    if (when.error === true && !anyError) return false;
    if (when.error === false && anyError) return false;
    if (typeof when.error === 'string' && !codes.includes(when.error)) return false;
  }
  if (when.userTextContains !== undefined) {
    const lastUser = [...messages].reverse().find((message) => message.role === 'user');
    if (lastUser === undefined || !lastUser.content.includes(when.userTextContains)) return false;
  }
  if (when.anyMessageContains !== undefined) {
    const needle = when.anyMessageContains;
    const found = messages.some((message) =>
      message.role === 'tool' ? canonicalJson(message.result).includes(needle) : message.content.includes(needle),
    );
    if (!found) return false;
  }
  return true;
}
