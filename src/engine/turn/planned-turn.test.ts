import { describe, expect, it } from 'vitest';
import { createPlannedRunner, plannedSettingsSchema } from '../../planned/index.js';
import { createScriptedProvider } from '../../providers/index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

function plannedOf(tasks: readonly string[], answer: string) {
  const planner = createScriptedProvider({ completions: [{ text: JSON.stringify({ intent: 'read', tasks: tasks.map((id) => ({ id, goal: `the part for ${id}`, managers: ['Part'] })) }) }] });
  const executor = createScriptedProvider({ loop: true, completions: [{ when: { toolName: 'lookup' }, text: 'Read it.' }, { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }] });
  const synthesizer = createScriptedProvider({ completions: [{ text: answer }] });
  return createPlannedRunner({ models: { planner, simpleExecutor: executor, complexExecutor: executor, synthesizer, fallback: planner }, settings: plannedSettingsSchema.parse({ enabled: true }), managers: [{ name: 'Part', description: 'A part.' }] });
}

describe('a planned turn in the engine', () => {
  it('runs an identical read of two tasks once; both get its result, journaled as steps of the turn', async () => {
    const made = kit(undefined, {}, { planned: plannedOf(['t1', 't2'], JSON.stringify({ answer: 'Part x has SKU-1.', evidence: ['e1', 'e2'] })) });
    const { events, answer } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'part x, twice over' });
    expect(answer).toBe('Part x has SKU-1.');
    expect(made.reads).toEqual(['x']);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((event) => event.task_id).sort()).toEqual(['t1', 't2']);
    expect(new Set(results.map((event) => JSON.stringify(event.result))).size).toBe(1);
    const items = await made.store.listItems(events.at(-1)!.thread_id);
    expect(items.map((item) => item.kind)).toEqual(['user_text', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant_text']);
  });

  it('gives the planner of a follow-up the conversation so far', async () => {
    const plan = JSON.stringify({ intent: 'read', tasks: [{ id: 't1', goal: 'the part', managers: ['Part'] }] });
    const planner = createScriptedProvider({ completions: [{ text: plan }, { text: plan }] });
    const executor = createScriptedProvider({ loop: true, completions: [{ when: { toolName: 'lookup' }, text: 'Read it.' }, { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }] });
    const synthesizer = createScriptedProvider({ loop: true, completions: [{ text: JSON.stringify({ answer: 'Part x has SKU-1.', evidence: ['e1'] }) }] });
    const planned = createPlannedRunner({ models: { planner, simpleExecutor: executor, complexExecutor: executor, synthesizer, fallback: planner }, settings: plannedSettingsSchema.parse({ enabled: true }), managers: [{ name: 'Part', description: 'A part.' }] });
    const made = kit(undefined, {}, { planned });
    const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'part x, in detail' });
    await made.engine.ask({ actor: alice, requestKey: key(), threadId: first.events.at(-1)!.thread_id, text: 'and its price, in detail?' });
    const asked = planner.requests[1]!.messages.map((message) => `${message.role}: ${'content' in message ? message.content.slice(0, 40) : ''}`);
    expect(asked.slice(1)).toEqual(['user: part x, in detail', 'assistant: Part x has SKU-1.', 'user: and its price, in detail?']);
  });
});
