import { describe, expect, it } from 'vitest';
import { createScriptedProvider, parseTextToolCall, recognizeTextToolCalls } from './index.js';
import type { ProviderEvent, ToolDefinition } from './index.js';

const tools: ToolDefinition[] = [{ name: 'query', description: 'Query.', parameters: { type: 'object' } }];

describe('parseTextToolCall', () => {
  it.each([
    ['{"name":"query","arguments":{"manager":"Part"}}', '{"manager":"Part"}'],
    ['  ```json\n{"name": "query", "parameters": {"manager": "Part"}}\n```  ', '{"manager":"Part"}'],
    ['```\n{"tool":"query","args":{"manager":"Part"}}\n```', '{"manager":"Part"}'],
    ['{"type":"function","function":{"name":"query","arguments":"{\\"manager\\":\\"Part\\"}"}}', '{"manager":"Part"}'],
    ['{"name":"query"}', '{}'],
  ])('reads %j as a call', (text, args) => {
    expect(parseTextToolCall(text, tools)).toEqual({ name: 'query', arguments: args });
  });

  it.each([
    ['a tool that is not advertised', '{"name":"drop_table","arguments":{}}'],
    ['prose around the object', 'Sure! {"name":"query","arguments":{}}'],
    ['two objects', '{"name":"query"}\n{"name":"query"}'],
    ['an array', '[{"name":"query"}]'],
    ['broken JSON', '{"name":"query","arguments":{'],
    ['arguments that are not an object', '{"name":"query","arguments":[1]}'],
  ])('leaves %s as text', (_what, text) => {
    expect(parseTextToolCall(text, tools)).toBeUndefined();
  });
});

describe('recognizeTextToolCalls on a stream', () => {
  const run = async (completion: object): Promise<ProviderEvent[]> => {
    const provider = createScriptedProvider({ completions: [completion] });
    const events: ProviderEvent[] = [];
    const stream = provider.complete({ messages: [{ role: 'user', content: 'q' }], tools, signal: new AbortController().signal });
    for await (const event of recognizeTextToolCalls(stream, tools, () => 'text_1')) events.push(event);
    return events;
  };

  it('streams ordinary prose at once, untouched', async () => {
    expect(await run({ text: ['There are ', '42.'] })).toEqual([
      { type: 'text', text: 'There are ' },
      { type: 'text', text: '42.' },
      { type: 'usage', inputTokens: 0, outputTokens: 0 },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  it('keeps native calls native and releases held JSON as text beside them', async () => {
    const events = await run({ text: '{"name":"query"}', toolCalls: [{ id: 'n1', name: 'query', arguments: {} }] });
    expect(events.filter((event) => event.type === 'tool_call')).toEqual([{ type: 'tool_call', id: 'n1', name: 'query', arguments: '{}' }]);
    expect(events).toContainEqual({ type: 'text', text: '{"name":"query"}' });
  });
});
