import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonObject } from '../../core/index.js';
import type { CompletionRequest, Provider, ProviderEvent } from '../../providers/index.js';
import { defineTool } from '../../tools/index.js';
import { createMemoryStore } from '../../store/index.js';
import { createEngine } from '../engine.js';
import type { Engine } from '../engine.js';
import type { ChatEvent } from '../shared/index.js';
import { alice, bob, key } from '../../../test/support/engine-kit.js';

const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});
function kit(provider: Provider) {
  const store = createMemoryStore();
  const engine = createEngine({ store, provider, tools: [exportParts] });
  engines.push(engine);
  return { engine, store };
}

/** About 1.1 MB of JSON: ten thousand rows. */
const rows = Array.from({ length: 10_000 }, (_, index) => ({ id: index, name: `Part ${index}`, note: `Row ${index} ${'ñ'.repeat(40)} "quoted"` }));
const whole = { rows };
const exportParts = defineTool({
  name: 'export_parts',
  description: 'Every part.',
  input: z.object({}),
  effect: 'read',
  handler: () => whole,
});

/**
 * A model that asks for the export, then reads on with `read_result` for `pages` more pages, then
 * answers. `read <id>` as the user's text makes it read that result at once.
 */
function pagingModel(pages: number): Provider & { readonly requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    name: 'paging',
    model: 'paging',
    requests,
    checkConfiguration: () => [],
    async *complete(request): AsyncIterable<ProviderEvent> {
      requests.push(request);
      await Promise.resolve();
      const last = request.messages.at(-1)!;
      const read = (args: JsonObject): ProviderEvent => ({ type: 'tool_call', id: `c${requests.length}`, name: 'read_result', arguments: JSON.stringify(args) });
      if (last.role === 'user') {
        yield last.content.startsWith('read ') ? read({ result_id: last.content.slice(5), offset: 0 }) : { type: 'tool_call', id: 'c0', name: 'export_parts', arguments: '{}' };
      } else if (last.role === 'tool' && (last.name === 'export_parts' || (last.name === 'read_result' && requests.length <= pages + 1))) {
        const page = last.result as { result_id?: string; next_offset?: number | null; error?: unknown };
        if (page.error !== undefined || page.next_offset == null) yield { type: 'text', text: 'Read.' };
        else yield read({ result_id: page.result_id!, offset: page.next_offset });
      } else {
        yield { type: 'text', text: 'Read.' };
      }
      yield { type: 'done', finishReason: 'stop' };
    },
  };
}

const results = (events: readonly ChatEvent[]) => events.filter((event) => event.type === 'tool_result').map((event) => event.result as JsonObject);

describe('a tool result larger than maxResultBytes', () => {
  it('reaches the model as a bounded first part with a handle, while the journal keeps it whole', async () => {
    const provider = pagingModel(0);
    const made = kit(provider);
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'export everything' });
    const [first] = results(events);
    const json = Buffer.from(JSON.stringify(whole));
    expect(first).toMatchObject({ truncated: true, offset: 0, total_bytes: json.length, result_id: expect.any(String) });
    expect(Buffer.byteLength(JSON.stringify(first))).toBeLessThanOrEqual(65_536);
    expect(Buffer.byteLength(JSON.stringify(first))).toBeGreaterThan(40_000);
    expect(json.subarray(0, first!.next_offset as number).toString()).toBe(first!.text);
    // The model got the same, and was offered read_result from then on (not before).
    expect(provider.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', result: first });
    expect(provider.requests[0]!.tools.map((tool) => tool.name)).toEqual(['export_parts']);
    expect(provider.requests[1]!.tools.map((tool) => tool.name)).toEqual(['export_parts', 'read_result']);
    const items = await made.store.listItems(events[0]!.thread_id);
    const stored = items.find((item) => item.kind === 'tool_result')!;
    expect(stored.id).toBe(first!.result_id);
    expect(stored.data).toMatchObject({ result: first, fullResult: whole, fullBytes: json.length });
  });

  it('is read on page by page with read_result, each page bounded, together the whole JSON text', async () => {
    const made = kit(pagingModel(3));
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'export everything' });
    expect(answer).toBe('Read.');
    const pages = results(events);
    expect(pages).toHaveLength(4);
    const json = Buffer.from(JSON.stringify(whole));
    let offset = 0;
    for (const page of pages) {
      expect(page.offset).toBe(offset);
      expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(65_536);
      offset = page.next_offset as number;
    }
    expect(pages.map((page) => page.text as string).join('')).toBe(json.subarray(0, offset).toString());
  });

  it("refuses another thread's handle as not found, for its owner and for anyone else", async () => {
    const made = kit(pagingModel(0));
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'export everything' });
    const handle = results(events)[0]!.result_id as string;
    for (const actor of [alice, bob]) {
      const other = await made.engine.ask({ actor, newThread: true, requestKey: key(), text: `read ${handle}` });
      expect(results(other.events)).toEqual([{ error: { code: 'result_not_found', message: expect.stringContaining('No stored result') } }]);
    }
    // In its own thread it is found.
    const same = await made.engine.ask({ actor: alice, threadId: events[0]!.thread_id, requestKey: key(), text: `read ${handle}` });
    expect(results(same.events)[0]).toMatchObject({ result_id: handle, offset: 0 });
  });
});
