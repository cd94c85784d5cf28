import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../index.js';
import { tempDirEach } from '../../../test/support/temp.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) }, out, err };
}

describe('plumb route', () => {
  const dir = tempDirEach('plumb-route-');

  it('prints a readable summary of the plan', async () => {
    const { io, out } = capture();
    expect(await runCli(['route', '--demo', '--database', ':memory:', 'charge order 4411'], io)).toBe(0);
    expect(out.join('')).toContain('outcome: ask');
    expect(out.join('')).toContain('question: To charge card, which amount?');
  });

  it('prints the TurnPlan as JSON, reading dates against --now in the chosen language', async () => {
    const { io, out } = capture();
    expect(await runCli(['route', '--demo', '--database', ':memory:', '--json', '--language', 'pt-BR', '--now', '2026-10-19T09:00:00-03:00', 'estou livre quinta à tarde?'], io)).toBe(0);
    const plan = JSON.parse(out.join(''));
    expect(plan.outcome).toBe('run');
    expect(plan.steps[0].selection.arguments).toEqual({ time_max: '2026-10-22T18:00:00-03:00', time_min: '2026-10-22T12:00:00-03:00' });
  });

  it('carries a saved session from one command to the next', async () => {
    const file = join(dir.path, 'session.json');
    const first = capture();
    expect(await runCli(['route', '--demo', '--database', ':memory:', '--save-session', file, 'charge order 4411'], first.io)).toBe(0);
    const second = capture();
    expect(await runCli(['route', '--demo', '--database', ':memory:', '--json', '--session', file, '--save-session', file, 'the amount is 40.00'], second.io)).toBe(0);
    const plan = JSON.parse(second.out.join(''));
    expect(plan.steps[0].selection.sources).toEqual({ amount: 'reply', order_id: 'turn' });
    expect(JSON.parse(readFileSync(file, 'utf8')).answered.reads).toBe(2);
  });

  it('reads a catalogue file', async () => {
    const file = join(dir.path, 'catalogue.yaml');
    writeFileSync(file, JSON.stringify([{ name: 'get_weather', description: 'Weather for a city', effect: 'read', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }]));
    const { io, out } = capture();
    expect(await runCli(['route', '--catalogue', file, '--json', 'get weather for "Lisbon"'], io)).toBe(0);
    expect(JSON.parse(out.join('')).steps[0].selection.arguments).toEqual({ city: 'Lisbon' });
  });

  it('reads as a configured actor with --as, like every other command, and refuses an unknown one', async () => {
    const alice = capture();
    expect(await runCli(['route', '--demo', '--database', ':memory:', '--as', 'alice', 'charge order 4411 40.00'], alice.io)).toBe(0);
    expect(alice.out.join('')).toContain('outcome: run');
    const unknown = capture();
    expect(await runCli(['route', '--demo', '--database', ':memory:', '--as', 'carol', 'x'], unknown.io)).toBe(2);
    expect(unknown.err.join('')).toMatch(/unknown actor 'carol' for --as; choose one of anonymous, alice, bob/);
    const both = capture();
    expect(await runCli(['route', '--demo', '--database', ':memory:', '--as', 'alice', '--actor', 'a-1', 'x'], both.io)).toBe(2);
    expect(both.err.join('')).toContain('give --as NAME or --actor ID, not both');
  });

  it('exits 2 with a one-line reason on bad usage', async () => {
    const none = capture();
    expect(await runCli(['route', 'show order 1'], none.io)).toBe(2);
    expect(none.err.join('')).toMatch(/--demo for the embedded demo shop.*--catalogue FILE/);
    const language = capture();
    expect(await runCli(['route', '--demo', '--database', ':memory:', '--language', 'fr', 'x'], language.io)).toBe(2);
    const missing = capture();
    expect(await runCli(['route', '--catalogue', join(dir.path, 'nope.json'), 'x'], missing.io)).toBe(2);
  });
});
