import { describe, expect, it } from 'vitest';
import { ToolCallAssembler } from './index.js';
import type { ProviderEvent } from './index.js';

describe('ToolCallAssembler', () => {
  const flush = (assembler: ToolCallAssembler): ProviderEvent[] => {
    const out: ProviderEvent[] = [];
    assembler.flush(out);
    return out;
  };

  it('joins fragments per index and releases calls in index order, generating missing ids', () => {
    const ids = ['gen_a'];
    const assembler = new ToolCallAssembler(() => ids.shift() ?? 'gen_x');
    assembler.add(1, 'b', 'second', '{"x"');
    assembler.add(0, undefined, 'first', '');
    assembler.add(1, undefined, undefined, ':1}');
    expect(flush(assembler)).toEqual([
      { type: 'tool_call', id: 'gen_a', name: 'first', arguments: '{}' },
      { type: 'tool_call', id: 'b', name: 'second', arguments: '{"x":1}' },
    ]);
    expect(assembler.size).toBe(0);
  });

  it('starts a new call when a server reuses index 0 with a new id', () => {
    const assembler = new ToolCallAssembler(() => 'unused');
    assembler.add(0, 'one', 'lookup', '{"q":');
    assembler.add(0, undefined, undefined, '"a"}');
    assembler.add(0, 'two', 'lookup', '{"q":"b"}');
    expect(flush(assembler)).toEqual([
      { type: 'tool_call', id: 'one', name: 'lookup', arguments: '{"q":"a"}' },
      { type: 'tool_call', id: 'two', name: 'lookup', arguments: '{"q":"b"}' },
    ]);
  });
});
