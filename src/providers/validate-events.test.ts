import { describe, expect, it } from 'vitest';
import { validateProviderEvents } from './index.js';
import type { ProviderEvent } from './index.js';

describe('validateProviderEvents', () => {
  it('accepts a conforming completion', () => {
    expect(
      validateProviderEvents([
        { type: 'text', text: 'a' },
        { type: 'tool_call', id: 'c1', name: 't', arguments: '{}' },
        { type: 'usage', inputTokens: 1, outputTokens: 2 },
        { type: 'done', finishReason: 'tool_calls' },
      ]),
    ).toEqual([]);
  });

  it('names each problem: duplicate ids, empty text, events after done, a missing done', () => {
    const events: ProviderEvent[] = [
      { type: 'text', text: '' },
      { type: 'tool_call', id: 'c1', name: 't', arguments: '{}' },
      { type: 'tool_call', id: 'c1', name: 't', arguments: '{}' },
      { type: 'done', finishReason: 'stop' },
      { type: 'usage', inputTokens: -1, outputTokens: 0 },
    ];
    expect(validateProviderEvents(events)).toEqual([
      'event 0 (text): text must be a non-empty string',
      "event 2 (tool_call): id 'c1' is used twice",
      'event 4 (usage) comes after done',
      'event 4 (usage): token counts must be non-negative integers',
    ]);
    expect(validateProviderEvents([{ type: 'text', text: 'x' }])).toEqual(['the completion has no done event']);
  });
});
