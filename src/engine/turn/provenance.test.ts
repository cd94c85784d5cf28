/** The answer's `text_chunk` carries the provenance of every value it shows, and a replay gives it again. */
import { afterEach, describe, expect, it } from 'vitest';
import { userActor } from '../../core/index.js';
import { createMemoryStore } from '../../store/index.js';
import type { ChatEvent, TextChunkEvent } from '../index.js';
import { routerKit } from '../../../test/support/engine-router-kit.js';
import type { RouterKit } from '../../../test/support/engine-router-kit.js';

const alice = userActor('alice', ['admin']);
const kits: RouterKit[] = [];
afterEach(async () => {
  for (const kit of kits.splice(0)) await kit.engine.close();
});

const chunkOf = (events: readonly ChatEvent[]): TextChunkEvent => events.find((e): e is TextChunkEvent => e.type === 'text_chunk')!;

describe('provenance in the events', () => {
  it('marks the values of a tool result in the text_chunk, and replays them with the turn', async () => {
    const kit = routerKit(createMemoryStore());
    kits.push(kit);
    const first = await kit.engine.ask({ actor: alice, requestKey: 'prov-1', text: 'show me order 4411' });
    const chunk = chunkOf(first.events);
    const total = chunk.provenance?.find((s) => s.field === 'total');
    expect(total).toMatchObject({ step: 0, tool: 'get_order', row: null, id: '4411' });
    expect(chunk.content.slice(total!.start, total!.end)).toBe('40.00');
    const again = await kit.engine.ask({ actor: alice, requestKey: 'prov-1', text: 'show me order 4411' });
    expect(chunkOf(again.events).provenance).toEqual(chunk.provenance);
  });

  it('carries none for an answer that shows no value of a result', async () => {
    const kit = routerKit(createMemoryStore());
    kits.push(kit);
    const { events } = await kit.engine.ask({ actor: alice, requestKey: 'prov-2', text: 'charge order 4411' });
    expect(chunkOf(events).provenance).toBeUndefined();
  });
});
