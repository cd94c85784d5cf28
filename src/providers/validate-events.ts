import type { ProviderEvent } from './protocol.js';

/**
 * Checks a completed completion's events against the provider protocol and returns the problems
 * (empty when it conforms): text deltas are non-empty strings; tool calls have a non-empty id
 * (unique within the completion), a name and string arguments; at most one usage, with
 * non-negative integer counts, before `done`; exactly one `done`, last. Custom providers can run
 * their output through it in their own tests.
 */
export function validateProviderEvents(events: readonly ProviderEvent[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  let usage = 0;
  let done = 0;
  events.forEach((event, index) => {
    const at = `event ${index} (${String((event as { type?: unknown }).type)})`;
    if (done > 0) problems.push(`${at} comes after done`);
    switch (event.type) {
      case 'text':
        if (typeof event.text !== 'string' || event.text === '') problems.push(`${at}: text must be a non-empty string`);
        break;
      case 'tool_call':
        if (typeof event.id !== 'string' || event.id === '') problems.push(`${at}: id must be a non-empty string`);
        else if (ids.has(event.id)) problems.push(`${at}: id '${event.id}' is used twice`);
        else ids.add(event.id);
        if (typeof event.name !== 'string' || event.name === '') problems.push(`${at}: name must be a non-empty string`);
        if (typeof event.arguments !== 'string') problems.push(`${at}: arguments must be the JSON text, a string`);
        break;
      case 'usage':
        usage += 1;
        if (usage > 1) problems.push(`${at}: usage is reported more than once`);
        for (const count of [event.inputTokens, event.outputTokens]) {
          if (!Number.isInteger(count) || count < 0) problems.push(`${at}: token counts must be non-negative integers`);
        }
        break;
      case 'done':
        done += 1;
        break;
      default:
        problems.push(`${at}: unknown event type`);
    }
  });
  if (done === 0) problems.push('the completion has no done event');
  return problems;
}
