import type { JsonValue } from '../core/index.js';
import type { ProviderEvent } from './protocol.js';

interface PendingCall {
  readonly index: number;
  readonly order: number;
  id: string | undefined;
  name: string;
  arguments: string;
  providerData: Readonly<Record<string, JsonValue>> | undefined;
}

/**
 * Collects tool calls whose id, name and argument text arrive in fragments, keyed by the
 * provider's index (or block number), and releases them whole, in index order, with a stable id:
 * the provider's own, else one from `newId`.
 */
export class ToolCallAssembler {
  /** The call each provider index currently feeds. */
  readonly #byIndex = new Map<number, PendingCall>();
  readonly #calls: PendingCall[] = [];
  readonly #newId: () => string;

  constructor(newId: () => string) {
    this.#newId = newId;
  }

  get size(): number {
    return this.#calls.length;
  }

  /** Adds a fragment for call `index`. Any part may be missing in any fragment. */
  add(
    index: number,
    id: string | undefined,
    name: string | undefined,
    argumentsText: string | undefined,
    providerData?: Readonly<Record<string, JsonValue>>,
  ): void {
    let call = this.#byIndex.get(index);
    // A fragment with a new id at an index already in use starts another call: some compatible
    // servers number every call 0.
    if (call === undefined || (id !== undefined && id !== '' && call.id !== undefined && call.id !== id)) {
      call = { index, order: this.#calls.length, id: undefined, name: '', arguments: '', providerData: undefined };
      this.#byIndex.set(index, call);
      this.#calls.push(call);
    }
    if (id !== undefined && id !== '' && call.id === undefined) call.id = id;
    if (name !== undefined && name !== '') call.name = call.name === '' ? name : call.name;
    if (argumentsText !== undefined) call.arguments += argumentsText;
    if (providerData !== undefined) call.providerData = { ...call.providerData, ...providerData };
  }

  /** Pushes every collected call onto `out` as `tool_call` events and forgets them. */
  flush(out: ProviderEvent[]): void {
    if (this.#calls.length === 0) return;
    // Provider index order, then arrival order (for calls that shared an index).
    const ordered = [...this.#calls].sort((a, b) => a.index - b.index || a.order - b.order);
    for (const call of ordered) {
      const args = call.arguments.trim() === '' ? '{}' : call.arguments;
      const id = call.id ?? this.#newId();
      out.push(
        call.providerData === undefined
          ? { type: 'tool_call', id, name: call.name, arguments: args }
          : { type: 'tool_call', id, name: call.name, arguments: args, providerData: call.providerData },
      );
    }
    this.#calls.length = 0;
    this.#byIndex.clear();
  }
}
