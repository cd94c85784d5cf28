import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoActor, demoActorNames } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, createServer, parseConfig } from '../../src/server/index.js';
import type { ChatStack, PlumbServer } from '../../src/server/index.js';
import { askConsole, launchChromium, openConsole } from '../support/console-page.js';
import { tempDir } from '../support/temp.js';

const root = join(import.meta.dirname, '..', '..');
const script = join(root, 'test/server/fixtures/demo-script.json');
const distClient = join(root, 'dist', 'client');

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly status: number;
  readonly responseHeaders: Record<string, string>;
}

/** Every request the page makes, with its answer's status and headers. */
function networkLog(page: Page): Seen[] {
  const seen: Seen[] = [];
  page.on('requestfinished', (request) => {
    void request.response().then((response) => {
      if (response === null) return;
      seen.push({ method: request.method(), path: new URL(request.url()).pathname, headers: request.headers(), status: response.status(), responseHeaders: response.headers() });
    });
  });
  return seen;
}

/** A GET with the path sent exactly as written (no `..` resolved, no re-encoding), as a hostile client sends it. */
function rawGet(url: string, path: string): Promise<{ status: number; type: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type']), body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the console on plumb/client, in headless Chromium', () => {
  let browser: Browser;
  let app: App;
  let stack: ChatStack;
  let server: PlumbServer;
  let url: string;
  beforeAll(async () => {
    browser = await launchChromium();
    app = await createDemoApp({ path: ':memory:' });
    const config = parseConfig({ store: ':memory:', provider: `scripted:${script}`, router: 'off', allowedMutations: ['createMaterial'], confirmMutations: ['createMaterial'], rateLimit: { requests: 1000 } });
    stack = await createChatStack({ app, config });
    server = await createServer({
      app,
      engine: stack.engine,
      settings: config,
      login: { names: demoActorNames.filter((name) => name !== 'anonymous'), resolve: (name) => (name === 'anonymous' ? undefined : demoActor(name)) },
    });
    url = await server.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await stack?.close();
    await app?.close();
  });

  it('loads the client from /console/client/ and streams a turn and its confirmation through it over SSE', async () => {
    const page = await browser.newPage();
    const seen = networkLog(page);
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await openConsole(page, url, 'alice');
    await page.click('#settings summary');
    await page.check('#force-sse');
    await expect.poll(() => page.textContent('#transport')).toBe('SSE (streaming fetch)');
    await askConsole(page, 'Please create material titanium');
    const card = page.locator('.card').last();
    await card.waitFor();
    expect(await card.locator('.sentence').textContent()).toBe('Create a new material with name “Titanium” and density 4.5?');
    await card.locator('button.confirm').click();
    await expect.poll(() => page.locator('.msg.assistant').last().textContent()).toBe('The change request is finished.');
    expect(await card.locator('.outcome').textContent()).toBe('Confirmed and done.');
    await expect.poll(() => page.locator('#thread-list button').count()).toBeGreaterThan(0);

    const modules = seen.filter((entry) => entry.path.startsWith('/console/client/'));
    expect(modules.map((entry) => entry.path)).toEqual(expect.arrayContaining(['/console/client/index.js', '/console/client/client.js', '/console/client/sse.js']));
    for (const entry of modules) {
      expect([entry.path, entry.status, entry.responseHeaders['content-type'], entry.responseHeaders['cache-control']]).toEqual([entry.path, 200, 'text/javascript; charset=utf-8', 'no-cache']);
    }
    // The client's own marks on the chat requests: a request key per turn, the page's CSRF token, JSON and SSE accepted.
    const turn = seen.find((entry) => entry.method === 'POST' && entry.path === '/chat/stream/');
    expect(turn?.headers['idempotency-key']).toMatch(/^rk_/);
    expect(turn?.headers['x-csrf-token']).toBe(await page.getAttribute('meta[name="plumb-csrf"]', 'content'));
    expect(turn?.headers.accept).toBe('application/json, text/event-stream');
    expect(turn?.responseHeaders['content-type']).toMatch(/^text\/event-stream/);
    const confirm = seen.find((entry) => entry.method === 'POST' && entry.path === '/chat/confirm/');
    expect([confirm?.status, confirm?.headers.accept]).toEqual([200, 'application/json, text/event-stream']);
    expect(seen.filter((entry) => entry.status >= 400)).toEqual([]);
    expect(failures).toEqual([]);
    await page.close();
  });

  it('answers a refused SSE turn with the server’s code, as an error in the log', async () => {
    const page = await browser.newPage();
    await openConsole(page, url, 'anonymous');
    await page.click('#settings summary');
    await page.check('#force-sse');
    await expect.poll(() => page.textContent('#transport')).toBe('SSE (streaming fetch)');
    // The cookies gone (the CSRF pair and the session): the server refuses the stream before any event.
    await page.context().clearCookies();
    await askConsole(page, 'Which materials do we use?');
    const error = page.locator('.error').last();
    await error.waitFor();
    expect(await error.locator('code').textContent()).toBe('csrf_failed');
    await expect.poll(() => page.locator('#send').isDisabled()).toBe(false);
    await page.close();
  });

  it.each([
    ['a module the client does not have', '/console/client/nope.js'],
    ['a source file', '/console/client/index.ts'],
    ['a test beside the sources', '/console/client/client.test.js'],
    ['an encoded climb to the package', '/console/client/..%2f..%2fpackage.json'],
    ['an encoded climb to the server', '/console/client/..%2Fserver%2Fcsrf.js'],
    ['a literal climb', '/console/client/../../package.json'],
    ['a dotted climb', '/console/client/%2e%2e/%2e%2e/package.json'],
    ['a folder below', '/console/client/sub/index.js'],
    ['the folder itself', '/console/client/'],
    ['an absolute name', '/console/client/%2Fetc%2Fpasswd'],
  ])('answers %s with 404 not_found in the server’s shape', async (_what, path) => {
    const answer = await rawGet(url, path);
    expect([answer.status, answer.type]).toEqual([404, 'application/json; charset=utf-8']);
    const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error.code).toBe('not_found');
    expect(body.error.message).not.toMatch(/package|passwd|csrf|nope|sub\//);
  });

  it('answers another method on a module with 405 and Allow: GET, HEAD', async () => {
    const answer = await fetch(`${url}/console/client/index.js`, { method: 'POST' });
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
  });

  it('compiles the checkout’s TypeScript into modules a browser runs', async () => {
    const answer = await fetch(`${url}/console/client/client-error.js`);
    const text = await answer.text();
    expect(text).toMatch(/export \{[^}]*PlumbClientError/);
    expect(text).not.toMatch(/readonly |: string|import type/);
  });
});

/** `plumb serve` from the build, as an installed package runs it: dist/client as it is, no compiler. */
describe('the built console', () => {
  const dir = tempDir('plumb-console-client-');
  let child: ChildProcessWithoutNullStreams;
  let url: string;
  let browser: Browser;
  beforeAll(async () => {
    expect(existsSync(join(distClient, 'index.js')), 'dist/ is built by npm test (pretest: npm run build)').toBe(true);
    child = spawn(process.execPath, [join(root, 'dist/cli/main.js'), 'serve', '--demo', '--database', join(dir.path, 'demo.sqlite'), '--port', '0'], { cwd: dir.path });
    let output = '';
    url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`serve exited early (${code}): ${output}`)));
    });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    child?.kill('SIGTERM');
    dir.remove();
  });

  it('serves each module of dist/client as it was built, without its source map comment', async () => {
    for (const name of readdirSync(distClient).filter((file) => file.endsWith('.js'))) {
      const answer = await fetch(`${url}/console/client/${name}`);
      expect([name, answer.status, answer.headers.get('content-type')]).toEqual([name, 200, 'text/javascript; charset=utf-8']);
      const built = readFileSync(join(distClient, name), 'utf8');
      expect(await answer.text()).toBe(built.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n'));
    }
    expect((await fetch(`${url}/console/client/index.js.map`)).status).toBe(404);
  });

  it('answers a first question in Chromium over SSE', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await openConsole(page, url, 'anonymous');
    await page.click('#settings summary');
    await page.check('#force-sse');
    await expect.poll(() => page.textContent('#transport')).toBe('SSE (streaming fetch)');
    await askConsole(page, 'which parts are made of steel?');
    await expect.poll(() => page.locator('.msg.assistant').last().textContent()).toMatch(/Steel/);
    expect(await page.locator('.plan').last().getAttribute('data-outcome')).toBe('run');
    expect(failures).toEqual([]);
    await page.close();
  });
});
