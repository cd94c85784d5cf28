import type { ProviderEvent } from './protocol.js';

interface PendingCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/**
 * Collects tool calls whose id, name and argument text arrive in fragments, keyed by the
 * provider's index (or block number), and releases them whole, in index order, with a stable id:
 * the provider's own, else one from `newId`.
 */
export class ToolCallAssembler {
  readonly #calls = new Map<number, PendingCall>();
  readonly #newId: () => string;

  constructor(newId: () => string) {
    this.#newId = newId;
  }

  get size(): number {
    return this.#calls.size;
  }

  /** Adds a fragment for call `index`. Any part may be missing in any fragment. */
  add(index: number, id: string | undefined, name: string | undefined, argumentsText: string | undefined): void {
    let call = this.#calls.get(index);
    if (call === undefined) {
      call = { id: undefined, name: '', arguments: '' };
      this.#calls.set(index, call);
    }
    if (id !== undefined && id !== '' && call.id === undefined) call.id = id;
    if (name !== undefined && name !== '') call.name = call.name === '' ? name : call.name;
    if (argumentsText !== undefined) call.arguments += argumentsText;
  }

  /** Pushes every collected call onto `out` as `tool_call` events and forgets them. */
  flush(out: ProviderEvent[]): void {
    if (this.#calls.size === 0) return;
    const indexes = [...this.#calls.keys()].sort((a, b) => a - b);
    for (const index of indexes) {
      const call = this.#calls.get(index);
      if (call === undefined) continue;
      out.push({ type: 'tool_call', id: call.id ?? this.#newId(), name: call.name, arguments: call.arguments.trim() === '' ? '{}' : call.arguments });
    }
    this.#calls.clear();
  }
}
