import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userActor } from '../core/index.js';
import { defineTool } from './define-tool.js';
import { createDispatcher } from './dispatcher.js';
import type { DispatchInstrument, InstrumentedCall } from './dispatcher.js';
import { isConfirmationRequired } from './tool-result.js';

const alice = userActor('alice', ['admin']);
const writes: string[] = [];
const tools = [
  defineTool({ name: 'look', description: 'Reads.', input: z.object({ q: z.string() }), effect: 'read', handler: (args) => ({ found: args.q }) }),
  defineTool({ name: 'note', description: 'Writes.', input: z.object({ text: z.string() }), effect: 'write', handler: (args) => (writes.push(args.text), { saved: args.text }) }),
];

describe('the dispatcher instrument', () => {
  it('runs around each dispatched call and each approved execution, told the phase, tool and effect', async () => {
    const seen: InstrumentedCall[] = [];
    const instrument: DispatchInstrument = (call, run) => {
      seen.push(call);
      return run();
    };
    const dispatcher = createDispatcher({ tools, instrument });
    expect(await dispatcher.dispatch({ name: 'look', arguments: { q: 'bolt' } }, { actor: alice })).toEqual({ found: 'bolt' });
    await dispatcher.dispatch({ name: 'nope' }, { actor: alice });
    const held = await dispatcher.dispatch({ name: 'note', arguments: { text: 'hi' } }, { actor: alice, threadId: 'T1' });
    expect(isConfirmationRequired(held)).toBe(true);
    if (!isConfirmationRequired(held)) return;
    expect(await dispatcher.confirm(held.confirmation_id, { actor: alice, confirmed: true })).toEqual({ saved: 'hi' });
    expect(seen.map((call) => [call.phase, call.tool, call.effect])).toEqual([
      ['dispatch', 'look', 'read'],
      ['dispatch', 'nope', undefined],
      ['dispatch', 'note', 'write'],
      ['confirm', 'note', 'write'],
    ]);
    expect(seen[3]).toMatchObject({ arguments: { text: 'hi' }, actor: alice, threadId: 'T1' });
  });

  it('never changes a result: what run answered stands whatever the instrument returns or throws after', async () => {
    const errors: unknown[] = [];
    const replacing = createDispatcher({ tools, instrument: async (_call, run) => (await run(), { forged: true }) });
    expect(await replacing.dispatch({ name: 'look', arguments: { q: 'a' } }, { actor: alice })).toEqual({ found: 'a' });
    const throwingAfter = createDispatcher({ tools, onError: (error) => errors.push(error), instrument: async (_call, run) => {
      await run();
      throw new Error('exporter down');
    } });
    expect(await throwingAfter.dispatch({ name: 'look', arguments: { q: 'b' } }, { actor: alice })).toEqual({ found: 'b' });
    expect(errors).toHaveLength(1);
  });

  it('fails the call closed as tool_failed when the instrument throws before running it', async () => {
    const errors: unknown[] = [];
    const dispatcher = createDispatcher({ tools, onError: (error) => errors.push(error), instrument: () => {
      throw new Error('broken tracer');
    } });
    expect(await dispatcher.dispatch({ name: 'look', arguments: { q: 'c' } }, { actor: alice })).toMatchObject({ error: { code: 'tool_failed' } });
    expect(errors).toHaveLength(1);
  });
});
