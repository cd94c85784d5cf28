import { describe, expect, it } from 'vitest';
import { argumentsObject, CallLedger, isJsonObject, parseToolResult, toAlternatingTurns, toFlatMessages } from './message-mapping.js';
import type { ChatMessage } from './protocol.js';

const history: ChatMessage[] = [
  { role: 'system', content: 'be brief' },
  { role: 'system', content: 'use tools' },
  { role: 'user', content: 'q' },
  { role: 'assistant', content: '' },
  { role: 'assistant', content: 'looking', toolCalls: [{ id: 'a', name: 'x', arguments: '{"n":1}' }] },
  { role: 'tool', toolCallId: 'a', name: 'x', result: { rows: 1 } },
  { role: 'user', content: 'thanks' },
];

describe('the shared message mapping', () => {
  it('sends a turn-per-message wire its text as { role, content } and leaves calls and results to the wire', () => {
    const out = toFlatMessages<{ calls: string[] } | { result: string }>(history, { withCalls: (_message, calls) => ({ calls: calls.map((c) => c.id) }), result: (message) => ({ result: message.toolCallId }) });
    expect(out).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'system', content: 'use tools' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '' },
      { calls: ['a'] },
      { result: 'a' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('joins system text apart, drops an empty assistant turn, and merges a result into the user turn after it', () => {
    const { system, turns } = toAlternatingTurns(history, { user: 'u', assistant: 'm', text: (text) => `text:${text}`, call: (call) => `call:${call.id}`, result: (message) => `result:${message.toolCallId}` });
    expect(system).toBe('be brief\n\nuse tools');
    expect(turns).toEqual([
      { role: 'u', items: ['text:q'] },
      { role: 'm', items: ['text:looking', 'call:a'] },
      { role: 'u', items: ['result:a', 'text:thanks'] },
    ]);
  });

  it('answers a result by its call id, else the first open call of its name, each call once', () => {
    const calls = new CallLedger();
    calls.record('a', 'lookup');
    calls.record('b', 'lookup');
    calls.record('c', 'other');
    expect(calls.nameOf('c')).toBe('other');
    expect(calls.nameOf('zz')).toBe('');
    expect(calls.answer('b', 'lookup')).toEqual({ id: 'b', name: 'lookup' });
    expect(calls.answer(undefined, 'lookup')).toEqual({ id: 'a', name: 'lookup' });
    expect(calls.answer(undefined, 'lookup')).toBeUndefined();
  });

  it('keeps arguments that are not a JSON object under _raw, and a result that is not JSON as its text', () => {
    expect(argumentsObject('{"n":1}')).toEqual({ n: 1 });
    expect(argumentsObject('[1]')).toEqual({ _raw: '[1]' });
    expect(argumentsObject('not json')).toEqual({ _raw: 'not json' });
    expect(parseToolResult('{"rows":2}')).toEqual({ rows: 2 });
    expect(parseToolResult('plain words')).toBe('plain words');
    expect([isJsonObject({}), isJsonObject([]), isJsonObject(null), isJsonObject('x')]).toEqual([true, false, false, false]);
  });
});
