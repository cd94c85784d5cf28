import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../support/serve-process.js';
import type { ServeProcess } from '../support/serve-process.js';

/**
 * A body far over bodyLimitBytes, sent by Node's fetch to `plumb serve` in its own process (in one
 * process the client and the server take turns on one loop, and the early close never races the
 * client's writes).
 */
describe('a refused body that is still being sent', () => {
  let serve: ServeProcess;
  let url: string;
  beforeAll(async () => {
    serve = await startServe(['--demo', '--database', ':memory:', '--port', '0']);
    url = serve.url;
  }, 60_000);
  afterAll(() => {
    if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
  });

  async function answer(init: RequestInit): Promise<string> {
    try {
      const response = await fetch(`${url}/chat/`, { method: 'POST', ...init });
      return `${response.status} ${((await response.json()) as { error: { code: string } }).error.code}`;
    } catch (error) {
      return String((error as Error).cause ?? error);
    }
  }

  it('reaches Node’s fetch as a 413 with its coded body, every time of 20', async () => {
    const csrf = await fetch(`${url}/chat/csrf/`);
    const cookie = csrf.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const { token } = (await csrf.json()) as { token: string };
    const body = JSON.stringify({ text: 'x'.repeat(10 * 1024 * 1024) });
    const answers: string[] = [];
    for (let attempt = 0; attempt < 20; attempt += 1) answers.push(await answer({ headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': token }, body }));
    expect(answers).toEqual(Array.from({ length: 20 }, () => '413 payload_too_large'));
    // Refused before its body is read (no CSRF pair), it reaches the client the same way.
    const refused: string[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) refused.push(await answer({ headers: { 'content-type': 'application/json' }, body }));
    expect(refused).toEqual(Array.from({ length: 5 }, () => '403 csrf_failed'));
  }, 120_000);
});
