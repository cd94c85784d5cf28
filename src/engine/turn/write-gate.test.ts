/**
 * Authorization before completion: a write the actor may not make is refused before the person is
 * asked anything about its arguments (an amount, a confirmation), on the router-first turn.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userActor } from '../../core/index.js';
import { createMemoryStore } from '../../store/index.js';
import type { ChatEvent } from '../index.js';
import { routerKit } from '../../../test/support/engine-router-kit.js';
import type { RouterKit } from '../../../test/support/engine-router-kit.js';

const alice = userActor('alice', ['admin']);
/** An anonymous visitor with a session key, as the server gives one. */
const anonymous = { kind: 'anonymous', sessionKey: 'visitor-1' } as const;
let keys = 0;
const key = (): string => `write-gate-${++keys}`;

const kits: RouterKit[] = [];
afterEach(async () => {
  for (const kit of kits.splice(0)) await kit.engine.close();
});

function kit(): RouterKit {
  const made = routerKit(createMemoryStore());
  kits.push(made);
  return made;
}

const types = (events: readonly ChatEvent[]): string[] => events.map((event) => event.type);

describe('a write the actor may not make', () => {
  it('is refused at once for an anonymous visitor, not asked about its amount first (en and pt-BR)', async () => {
    const { engine, calls } = kit();
    const en = await engine.ask({ actor: anonymous, requestKey: key(), text: 'charge order 4411' });
    expect(en.answer).toContain('authentication_required');
    expect(en.answer).toContain('sign in');
    expect(en.answer).not.toMatch(/amount/i);
    expect(types(en.events)).not.toContain('tool_call');
    expect(types(en.events)).not.toContain('confirm_mutation');
    const pt = await engine.ask({ actor: anonymous, requestKey: key(), text: 'cobre o pedido 4411', language: 'pt-BR' });
    expect(pt.answer).toContain('authentication_required');
    expect(pt.answer).toContain('faça login');
    expect(pt.answer).not.toMatch(/valor/i);
    expect(calls).toEqual([]);
  });

  it('leaves no open question behind: the next turn is read as a new turn, not as the amount', async () => {
    const { engine, calls } = kit();
    const first = await engine.ask({ actor: anonymous, requestKey: key(), text: 'charge order 4411' });
    const threadId = first.events[0]!.thread_id;
    const second = await engine.ask({ actor: anonymous, requestKey: key(), threadId, text: '40.00' });
    expect(second.events.some((e) => e.type === 'error')).toBe(false);
    expect(second.answer).not.toMatch(/^Charged|confirm/i);
    expect(types(second.events)).not.toContain('confirm_mutation');
    expect(types(second.events)).not.toContain('tool_call');
    expect(calls).toEqual([]);
  });

  it('is refused before its confirmation when the turn said every argument', async () => {
    const { engine, calls } = kit();
    const { answer, events } = await engine.ask({ actor: anonymous, requestKey: key(), text: 'charge order 4411 40.00' });
    expect(answer).toContain('authentication_required');
    expect(types(events)).not.toContain('confirm_mutation');
    expect(types(events)).not.toContain('tool_call');
    expect(calls).toEqual([]);
  });

  it('is still asked about, then confirmed, for a signed-in user', async () => {
    const { engine } = kit();
    const asked = await engine.ask({ actor: alice, requestKey: key(), text: 'charge order 4411' });
    expect(asked.answer).toMatch(/amount/i);
    expect(asked.answer).not.toContain('authentication_required');
  });
});
