import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userActor } from '../core/index.js';
import { defineApp, defineManager, sqlite } from '../data/index.js';
import type { App } from '../data/index.js';
import { createChatDispatcher } from './index.js';
import type { ToolErrorReport } from './index.js';

/** A host's read permission with a typo: a filter on `titel`, a field Book does not have. */
describe('a read permission that fails', () => {
  let app: App;
  const reports: { error: unknown; report: ToolErrorReport }[] = [];
  beforeAll(async () => {
    app = defineApp({
      database: sqlite({ path: ':memory:' }),
      managers: [
        defineManager({
          name: 'Book',
          description: 'A book of the library.',
          fields: { title: 'string' },
          chatExposed: true,
          permissions: { read: () => ({ titel: 'Dune' }) },
        }),
      ],
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('refuses the person with permission_error and no schema detail, and reports the detail to the host', async () => {
    const dispatcher = createChatDispatcher({ app, onError: (error, report) => reports.push({ error, report }) });
    const result = (await dispatcher.dispatch({ name: 'query', arguments: { manager: 'Book', fields: ['title'] } }, { actor: userActor('ana') })) as { error: { code: string; message: string } };
    expect(result.error.code).toBe('permission_error');
    expect(result.error.message).not.toMatch(/titel|title|Keys|id__in/);
    expect(reports).toHaveLength(1);
    const detail = (reports[0]!.error as Error & { cause: Error }).cause.message;
    expect(detail).toMatch(/read permission of Book failed: Unknown filter key 'titel' on Book/);
    expect(reports[0]!.report).toMatchObject({ tool: 'query', phase: 'handler' });
  });
});
