import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { userActor } from '../../core/index.js';
import { describeWithPostgres } from '../../data/testing/postgres.js';
import { createEngine } from '../../engine/index.js';
import { openPostgresStore } from '../../postgres/index.js';
import { createScriptedProvider } from '../../providers/index.js';
import { defineTool } from '../../tools/index.js';
import { readyChild } from '../../../test/support/child.js';
import { tempDirEach } from '../../../test/support/temp.js';

const fixture = join(import.meta.dirname, '..', '..', 'server', 'journal-child.fixture.ts');

describeWithPostgres('confirmations on one PostgreSQL journal, from two processes', (server) => {
  const dir = tempDirEach('plumb-claims-');

  it('runs a write once when 100 approvals of its confirmation arrive at once from two processes', async () => {
    const schema = await server.freshSchema();
    const marker = join(dir.path, 'executions.txt');
    writeFileSync(marker, '');
    const store = await openPostgresStore({ url: server.url, schema });
    const engine = createEngine({
      store,
      provider: createScriptedProvider({ completions: [{ toolCalls: [{ id: 'w', name: 'create_part', arguments: { name: 'A' } }] }] }),
      tools: [defineTool({ name: 'create_part', description: 'Creates a part.', input: z.object({ name: z.string() }), effect: 'write', handler: () => ({ id: 1 }) })],
    });
    const paused = await engine.ask({ actor: userActor('alice'), requestKey: 'k1', text: 'create A' });
    const request = paused.events.at(-1)!;
    expect(request.type).toBe('confirm_mutation');
    await engine.close();
    await store.close();

    const journal = `${server.url}#${schema}`;
    const children = [0, 1].map(() => readyChild<{ accepted: number }>(fixture, [journal, '-', '-', 'confirm', request.type === 'confirm_mutation' ? request.id : '', '50', marker]));
    await Promise.all(children.map((child) => child.ready));
    for (const child of children) child.go();
    const results = await Promise.all(children.map((child) => child.done));
    expect(results.reduce((sum, result) => sum + result.accepted, 0)).toBe(1);
    expect(readFileSync(marker, 'utf8').trim().split('\n')).toHaveLength(1);
    const check = await openPostgresStore({ url: server.url, schema });
    try {
      expect(await check.getTurn(request.turn_id)).toMatchObject({ status: 'completed' });
      expect(await check.getConfirmation(request.type === 'confirm_mutation' ? request.id : '')).toMatchObject({ status: 'resolved', resolution: expect.anything() });
    } finally {
      await check.close();
    }
  });
});
