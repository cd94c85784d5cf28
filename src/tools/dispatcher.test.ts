import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userActor, anonymous, PlumbError } from '../core/index.js';
import {
  createDispatcher,
  createMemoryConfirmationStore,
  defineTool,
  isConfirmationRequired,
  isToolError,
  renderTool,
  toolError,
} from './index.js';
import type { ToolResult } from './index.js';

const alice = userActor('alice', ['staff']);
const bob = userActor('bob');

function codeOf(result: ToolResult): string | undefined {
  return isToolError(result) ? result.error.code : undefined;
}

function manualClock(start = '2026-01-01T00:00:00.000Z') {
  let now = new Date(start).getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const echo = defineTool({
  name: 'echo',
  description: 'Returns its text.',
  input: z.object({ text: z.string(), times: z.int().positive().optional() }),
  effect: 'read',
  handler: (args) => ({ text: args.text.repeat(args.times ?? 1) }),
});

function counterTool() {
  const calls: unknown[] = [];
  const tool = defineTool({
    name: 'add_note',
    description: 'Adds a note.',
    input: z.object({ note: z.string() }),
    effect: 'write',
    handler: async (args) => {
      await Promise.resolve();
      calls.push(args);
      return { status: 'executed', note: args.note };
    },
  });
  return { tool, calls };
}

describe('defineTool', () => {
  it('rejects a name outside ^[a-z][a-z0-9_]{0,63}$ with invalid_tool_definition', () => {
    for (const name of ['Echo', '1tool', 'a-b', '', 'x'.repeat(65)]) {
      expect(() => defineTool({ name, description: 'd', input: z.object({}), effect: 'read', handler: () => null })).toThrow(
        expect.objectContaining({ code: 'invalid_tool_definition' }) as Error,
      );
    }
  });

  it('renders closed JSON Schema with required properties first, then alphabetical, byte-stable', () => {
    const tool = defineTool({
      name: 'shape',
      description: 'Shapes.',
      input: z.object({ zeta: z.string(), alpha: z.number().optional(), beta: z.string(), nested: z.object({ b: z.string(), a: z.string() }).optional() }),
      effect: 'read',
      handler: () => null,
    });
    const first = JSON.stringify(renderTool(tool));
    const parameters = renderTool(tool).parameters as { properties: object; required: string[]; additionalProperties: boolean };
    expect(Object.keys(parameters.properties)).toEqual(['beta', 'zeta', 'alpha', 'nested']);
    expect(parameters.required).toEqual(['beta', 'zeta']);
    expect(parameters.additionalProperties).toBe(false);
    expect(first).not.toContain('$schema');
    expect(first).toContain('"additionalProperties":false}');
    expect(JSON.stringify(renderTool(tool))).toBe(first);
  });
});

describe('dispatch', () => {
  it('runs a known read tool and returns its JSON value', async () => {
    const dispatcher = createDispatcher({ tools: [echo] });
    await expect(dispatcher.dispatch({ name: 'echo', arguments: '{"text":"hi","times":2}' }, { actor: anonymous })).resolves.toEqual({ text: 'hihi' });
  });

  it('answers unknown_tool for an unregistered name, including inherited property names', async () => {
    const dispatcher = createDispatcher({ tools: [echo] });
    for (const name of ['nope', 'constructor', '__proto__']) {
      expect(codeOf(await dispatcher.dispatch({ name, arguments: {} }, { actor: alice }))).toBe('unknown_tool');
    }
  });

  it('answers invalid_arguments for malformed JSON and non-object arguments', async () => {
    const dispatcher = createDispatcher({ tools: [echo] });
    for (const raw of ['{"text":', '[1]', 'null', '3']) {
      expect(codeOf(await dispatcher.dispatch({ name: 'echo', arguments: raw }, { actor: alice }))).toBe('invalid_arguments');
    }
  });

  it('answers invalid_arguments with JSON paths and what was expected', async () => {
    const dispatcher = createDispatcher({ tools: [echo] });
    const result = await dispatcher.dispatch({ name: 'echo', arguments: { text: 3, extra: true } }, { actor: alice });
    expect(codeOf(result)).toBe('invalid_arguments');
    const issues = (result as { error: { details: { issues: { path: string; expected?: string; message: string }[] } } }).error.details.issues;
    expect(issues).toContainEqual(expect.objectContaining({ path: '$.text', expected: 'string' }));
    expect(issues).toContainEqual(expect.objectContaining({ path: '$', message: "Unknown key 'extra'" }));
  });

  it('answers authentication_required when an anonymous actor calls a write tool', async () => {
    const { tool, calls } = counterTool();
    const dispatcher = createDispatcher({ tools: [tool] });
    expect(codeOf(await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'x' } }, { actor: anonymous }))).toBe('authentication_required');
    expect(calls).toHaveLength(0);
  });

  it('refuses an anonymous write before looking at its arguments, and says so from precheck with no call', async () => {
    const { tool, calls } = counterTool();
    const dispatcher = createDispatcher({ tools: [tool, echo] });
    // Arguments that would not validate: the actor gate still answers first.
    expect(codeOf(await dispatcher.dispatch({ name: 'add_note', arguments: { note: 3 } }, { actor: anonymous }))).toBe('authentication_required');
    expect(codeOf(dispatcher.precheck('add_note', anonymous) ?? null)).toBe('authentication_required');
    expect(dispatcher.precheck('add_note', alice)).toBeUndefined();
    expect(dispatcher.precheck('echo', anonymous)).toBeUndefined();
    expect(codeOf(dispatcher.precheck('nope', alice) ?? null)).toBe('unknown_tool');
    expect(calls).toHaveLength(0);
  });

  it("answers a tool's permits denial on every call and from precheck, whatever the arguments", async () => {
    const staffOnly = defineTool({
      name: 'close_books',
      description: 'Closes the month.',
      input: z.object({ month: z.string() }),
      effect: 'write',
      permits: (actor) => (actor.kind === 'user' && actor.roles.includes('staff') ? undefined : { code: 'forbidden', message: 'Staff only.' }),
      handler: () => 'closed',
    });
    const dispatcher = createDispatcher({ tools: [staffOnly] });
    expect(codeOf(dispatcher.precheck('close_books', bob) ?? null)).toBe('forbidden');
    expect(codeOf(await dispatcher.dispatch({ name: 'close_books', arguments: {} }, { actor: bob }))).toBe('forbidden');
    expect(dispatcher.precheck('close_books', alice)).toBeUndefined();
  });

  it('answers with the code of a tool authorization denial', async () => {
    const guarded = defineTool({
      name: 'guarded',
      description: 'Staff only.',
      input: z.object({}),
      effect: 'read',
      authorize: (_args, ctx) => (ctx.actor.kind === 'user' && ctx.actor.roles.includes('staff') ? undefined : { code: 'forbidden', message: 'Staff only.' }),
      handler: () => 'ok',
    });
    const dispatcher = createDispatcher({ tools: [guarded] });
    expect(codeOf(await dispatcher.dispatch({ name: 'guarded' }, { actor: bob }))).toBe('forbidden');
    expect(await dispatcher.dispatch({ name: 'guarded' }, { actor: alice })).toBe('ok');
  });

  it('answers tool_failed with a safe message and sends the internal error to the hook', async () => {
    const reported: unknown[] = [];
    const broken = defineTool({ name: 'broken', description: 'Breaks.', input: z.object({}), effect: 'read', handler: () => {
      throw new Error('secret stack detail');
    } });
    const dispatcher = createDispatcher({ tools: [broken], onError: (error) => reported.push(error) });
    const result = await dispatcher.dispatch({ name: 'broken' }, { actor: alice });
    expect(codeOf(result)).toBe('tool_failed');
    expect(JSON.stringify(result)).not.toContain('secret');
    expect(reported).toHaveLength(1);
  });

  it('passes a toolError code and message through to the caller', async () => {
    const picky = defineTool({ name: 'picky', description: 'Refuses.', input: z.object({}), effect: 'read', handler: () => {
      throw toolError('invalid_arguments', 'Amount exceeds the balance.');
    } });
    const dispatcher = createDispatcher({ tools: [picky] });
    expect(await dispatcher.dispatch({ name: 'picky' }, { actor: alice })).toEqual({ error: { code: 'invalid_arguments', message: 'Amount exceeds the balance.' } });
  });

  it('answers timeout and aborts the handler signal when a tool overruns timeoutMs', async () => {
    let sawAbort = false;
    const slow = defineTool({
      name: 'slow',
      description: 'Waits.',
      input: z.object({}),
      effect: 'read',
      timeoutMs: 5,
      handler: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            setTimeout(() => resolve('late'), 1);
          });
        }),
    });
    const dispatcher = createDispatcher({ tools: [slow] });
    expect(codeOf(await dispatcher.dispatch({ name: 'slow' }, { actor: alice }))).toBe('timeout');
    expect(sawAbort).toBe(true);
  });

  it('answers aborted when the caller signal fires', async () => {
    const hang = defineTool({ name: 'hang', description: 'Hangs.', input: z.object({}), effect: 'read', handler: () => new Promise(() => undefined) });
    const dispatcher = createDispatcher({ tools: [hang] });
    const controller = new AbortController();
    const pending = dispatcher.dispatch({ name: 'hang' }, { actor: alice, signal: controller.signal });
    controller.abort();
    expect(codeOf(await pending)).toBe('aborted');
  });

  it('cuts a result above maxResultBytes and flags it truncated', async () => {
    const big = defineTool({ name: 'big', description: 'Big.', input: z.object({}), effect: 'read', handler: () => ({ data: Array.from({ length: 500 }, (_, i) => ({ i, text: 'x'.repeat(20) })), total_count: 500 }) });
    const dispatcher = createDispatcher({ tools: [big], settings: { maxResultBytes: 1024 } });
    const result = (await dispatcher.dispatch({ name: 'big' }, { actor: alice })) as { data: unknown[]; truncated: boolean; total_count: number };
    expect(result.truncated).toBe(true);
    expect(result.total_count).toBe(500);
    expect(result.data.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(1024);
  });

  it('refuses two tools with one name at startup', () => {
    expect(() => createDispatcher({ tools: [echo, echo] })).toThrow(PlumbError);
  });
});

describe('the confirmation gate', () => {
  function setup() {
    const clock = manualClock();
    const { tool, calls } = counterTool();
    let n = 0;
    const dispatcher = createDispatcher({ tools: [tool], clock: clock.now, ids: () => `c${++n}`, settings: { confirmTimeoutSeconds: 30 } });
    return { dispatcher, calls, clock };
  }

  it('holds a write and returns confirmation_required without executing it', async () => {
    const { dispatcher, calls } = setup();
    const result = await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'hello' } }, { actor: alice, threadId: 't1' });
    expect(result).toEqual({ status: 'confirmation_required', confirmation_id: 'c1', tool: 'add_note', arguments: { note: 'hello' }, expires_at: '2026-01-01T00:00:30.000Z' });
    expect(calls).toHaveLength(0);
    const record = await dispatcher.confirmations.get('c1');
    expect(record).toMatchObject({ tool: 'add_note', threadId: 't1', state: 'pending', actor: { id: 'alice' } });
    expect(record?.argumentsHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers confirmation_required as an error when the caller cannot ask a person', async () => {
    const { dispatcher, calls } = setup();
    expect(codeOf(await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'x' } }, { actor: alice, canConfirm: false }))).toBe('confirmation_required');
    expect(calls).toHaveLength(0);
  });

  it('executes the stored arguments once the same actor confirms', async () => {
    const { dispatcher, calls } = setup();
    await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'hello' } }, { actor: alice });
    expect(await dispatcher.confirm('c1', { actor: alice, confirmed: true })).toEqual({ status: 'executed', note: 'hello' });
    expect(calls).toEqual([{ note: 'hello' }]);
    expect((await dispatcher.confirmations.get('c1'))?.resolution).toEqual({ status: 'executed', result: { status: 'executed', note: 'hello' } });
  });

  it('records a rejection as cancelled user_rejected', async () => {
    const { dispatcher, calls } = setup();
    await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'x' } }, { actor: alice });
    expect(await dispatcher.confirm('c1', { actor: alice, confirmed: false })).toEqual({ status: 'cancelled', reason: 'user_rejected' });
    expect((await dispatcher.confirmations.get('c1'))?.resolution).toEqual({ status: 'cancelled', reason: 'user_rejected' });
    expect(codeOf(await dispatcher.confirm('c1', { actor: alice, confirmed: true }))).toBe('confirmation_invalid');
    expect(calls).toHaveLength(0);
  });

  it('answers confirmation_invalid for another actor, an unknown id and a second use', async () => {
    const { dispatcher, calls } = setup();
    await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'x' } }, { actor: alice });
    expect(codeOf(await dispatcher.confirm('c1', { actor: bob, confirmed: true }))).toBe('confirmation_invalid');
    expect(codeOf(await dispatcher.confirm('nope', { actor: alice, confirmed: true }))).toBe('confirmation_invalid');
    await dispatcher.confirm('c1', { actor: alice, confirmed: true });
    expect(codeOf(await dispatcher.confirm('c1', { actor: alice, confirmed: true }))).toBe('confirmation_invalid');
    expect(calls).toHaveLength(1);
  });

  it('answers confirmation_expired after the token lapses and records confirmation_timed_out', async () => {
    const { dispatcher, calls, clock } = setup();
    await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'x' } }, { actor: alice });
    clock.advance(30_000);
    expect(codeOf(await dispatcher.confirm('c1', { actor: alice, confirmed: true }))).toBe('confirmation_expired');
    expect((await dispatcher.confirmations.get('c1'))?.resolution).toEqual({ status: 'cancelled', reason: 'confirmation_timed_out' });
    expect(calls).toHaveLength(0);
  });

  it('expires lapsed pending confirmations in a sweep', async () => {
    const { dispatcher, clock } = setup();
    await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'x' } }, { actor: alice });
    await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'y' } }, { actor: alice });
    clock.advance(31_000);
    const expired = await dispatcher.expirePending();
    expect(expired.map((record) => record.id).sort()).toEqual(['c1', 'c2']);
    expect(await dispatcher.expirePending()).toEqual([]);
  });

  it('rejects a confirmation whose arguments were changed', async () => {
    const { dispatcher, calls } = setup();
    await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'pay 10' } }, { actor: alice });
    expect(codeOf(await dispatcher.confirm('c1', { actor: alice, confirmed: true, arguments: { note: 'pay 1000' } }))).toBe('confirmation_invalid');
    expect(calls).toHaveLength(0);
    expect(await dispatcher.confirm('c1', { actor: alice, confirmed: true, arguments: { note: 'pay 10' } })).toEqual({ status: 'executed', note: 'pay 10' });
  });

  it('rejects a held call whose stored arguments were tampered with', async () => {
    const store = createMemoryConfirmationStore();
    const { tool, calls } = counterTool();
    const dispatcher = createDispatcher({ tools: [tool], confirmations: store, ids: () => 'c1' });
    await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'a' } }, { actor: alice });
    const record = (await store.get('c1'))!;
    const tampered = createMemoryConfirmationStore();
    await tampered.create({ ...record, arguments: { note: 'b' } });
    const other = createDispatcher({ tools: [tool], confirmations: tampered });
    expect(codeOf(await other.confirm('c1', { actor: alice, confirmed: true }))).toBe('confirmation_invalid');
    expect(calls).toHaveLength(0);
  });

  it('executes exactly once under 50 concurrent claims', async () => {
    const { dispatcher, calls } = setup();
    const held = await dispatcher.dispatch({ name: 'add_note', arguments: { note: 'once' } }, { actor: alice });
    expect(isConfirmationRequired(held)).toBe(true);
    const results = await Promise.all(Array.from({ length: 50 }, () => dispatcher.confirm('c1', { actor: alice, confirmed: true })));
    expect(calls).toHaveLength(1);
    expect(results.filter((result) => codeOf(result) === 'confirmation_invalid')).toHaveLength(49);
  });

  it('lets a confirm function decide per call', async () => {
    const tool = defineTool({
      name: 'pay',
      description: 'Pays.',
      input: z.object({ amount: z.number() }),
      effect: 'irreversible',
      confirm: (args) => args.amount > 100,
      handler: (args) => ({ paid: args.amount }),
    });
    const dispatcher = createDispatcher({ tools: [tool] });
    expect(await dispatcher.dispatch({ name: 'pay', arguments: { amount: 5 } }, { actor: alice })).toEqual({ paid: 5 });
    expect(isConfirmationRequired(await dispatcher.dispatch({ name: 'pay', arguments: { amount: 500 } }, { actor: alice }))).toBe(true);
  });
});

describe('callbacks that throw', () => {
  it('answers tool_failed when a schema refinement or a confirm callback throws, and reports it', async () => {
    const reported: unknown[] = [];
    const fragile = defineTool({
      name: 'fragile',
      description: 'Has a throwing refinement.',
      input: z.object({ n: z.number().refine((n) => {
        if (n < 0) throw new Error('refinement blew up');
        return true;
      }) }),
      effect: 'read',
      confirm: (args) => {
        if (args.n === 13) throw new Error('confirm blew up');
        return false;
      },
      handler: (args) => args.n,
    });
    const dispatcher = createDispatcher({ tools: [fragile], onError: (error) => reported.push(error) });
    expect(codeOf(await dispatcher.dispatch({ name: 'fragile', arguments: { n: -1 } }, { actor: alice }))).toBe('tool_failed');
    expect(codeOf(await dispatcher.dispatch({ name: 'fragile', arguments: { n: 13 } }, { actor: alice }))).toBe('tool_failed');
    expect(await dispatcher.dispatch({ name: 'fragile', arguments: { n: 2 } }, { actor: alice })).toBe(2);
    expect(reported).toHaveLength(2);
  });
});

describe('invalid_arguments details', () => {
  it('says which alternatives a union expected', async () => {
    const pick = defineTool({ name: 'pick', description: 'Picks.', input: z.object({ item: z.union([z.string(), z.number()]) }), effect: 'read', handler: () => null });
    const result = await createDispatcher({ tools: [pick] }).dispatch({ name: 'pick', arguments: { item: true } }, { actor: alice });
    expect(result).toMatchObject({ error: { code: 'invalid_arguments', details: { issues: [{ path: '$.item', expected: 'string or number' }] } } });
  });
});
