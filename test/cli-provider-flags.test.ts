import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WIRE_FIXTURES } from '../src/providers/test-support/wire-fixtures.js';
import { WireServer } from '../src/providers/test-support/wire-server.js';
import { plumb } from './support/cli.js';

const openai = WIRE_FIXTURES.find((fixture) => fixture.name === 'openai')!;

describe('plumb ask --provider --model --base-url', () => {
  let server: WireServer;
  beforeAll(async () => {
    server = await WireServer.start();
    process.env.OPENAI_API_KEY = 'sk-from-the-environment';
  });
  afterEach(() => {
    server.requests.length = 0;
  });
  afterAll(async () => {
    delete process.env.OPENAI_API_KEY;
    await server.close();
  });

  it('sends the turn to the named model at the given base URL and prints its answer', async () => {
    server.reply(openai.text(['Plumb ', 'is ready.'], [12, 4]));
    const run = await plumb('ask', 'hello there', '--demo', '--db', ':memory:', '--provider', 'openai', '--model', 'my-local-model', '--base-url', server.url);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Plumb is ready.');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body).toMatchObject({ model: 'my-local-model', stream: true });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-from-the-environment');
  });

  it.each([
    [['--model', 'x'], /--model and --base-url need --provider/],
    [['--base-url', 'http://127.0.0.1:1'], /--model and --base-url need --provider/],
  ])('exits 2 for %j without --provider', async (flags, reason) => {
    const run = await plumb('ask', 'hello', '--demo', '--db', ':memory:', ...flags);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
  });

  it('names the choices for an unknown provider', async () => {
    const run = await plumb('ask', 'hello', '--demo', '--db', ':memory:', '--provider', 'gpt-magic');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/provider_unknown.*openai.*anthropic/);
  });
});
