import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { plannedErrorCodes, planProblemCodes, terminalMessages } from './index.js';

const docs = readFileSync(new URL('../../docs/planned.md', import.meta.url), 'utf8');
/** The `| `code` | text |` rows of the section that starts with `heading`, up to the next section. */
function table(heading: string): Record<string, string> {
  const start = docs.indexOf(heading);
  const end = docs.indexOf('\n## ', start + heading.length);
  const section = docs.slice(start, end === -1 ? undefined : end);
  return Object.fromEntries([...section.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)].map((match) => [match[1], match[2]]));
}

describe('planned codes', () => {
  it('are each documented in docs/planned.md with their meaning, and nothing else is', () => {
    expect(table('## Error codes')).toEqual(plannedErrorCodes);
    expect(table('## Plan problems')).toEqual(planProblemCodes);
  });

  it('end a turn with the message docs/planned.md gives', () => {
    expect(table('## Budgets, deadlines and terminal reasons')).toEqual(terminalMessages);
  });
});
