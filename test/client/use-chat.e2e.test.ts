import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/console-page.js';
import { startServe } from '../support/serve-process.js';
import type { ServeProcess } from '../support/serve-process.js';
import { tempDir } from '../support/temp.js';

const root = join(import.meta.dirname, '..', '..');
const distClient = join(root, 'dist', 'client');

/**
 * The AI SDK's useChat, in a React page in headless Chromium, with `plumb serve --demo` as its
 * backend through plumb/client's transport. The page is served from the server's own origin (as a
 * host app mounting Plumb would be); plumb/client is the built dist/client, loaded by the browser
 * as plain ES modules through an import map.
 */
describe('useChat with a Plumb server as its backend', () => {
  const dir = tempDir('plumb-use-chat-');
  let serve: ServeProcess;
  let browser: Browser;
  let bundle: string;

  beforeAll(async () => {
    expect(existsSync(join(distClient, 'index.js')), 'dist/ is built by npm test (pretest: npm run build)').toBe(true);
    const built = await build({
      entryPoints: [join(import.meta.dirname, 'fixtures', 'use-chat-page.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      external: ['plumb-agent/client'],
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    bundle = built.outputFiles[0]!.text;
    serve = await startServe(['--demo', '--database', join(dir.path, 'demo.sqlite'), '--port', '0']);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    serve?.child.kill('SIGTERM');
    dir.remove();
  });

  async function openPage(user: string): Promise<Page> {
    const page = await browser.newPage();
    await page.route(`${serve.url}/app/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/app/') {
        return route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><meta charset="utf-8"><script type="importmap">{"imports":{"plumb-agent/client":"/app/client/index.js"}}</script><div id="root"></div><script type="module" src="/app/page.js"></script>`,
        });
      }
      if (path === '/app/page.js') return route.fulfill({ contentType: 'text/javascript', body: bundle });
      const file = join(distClient, path.slice('/app/client/'.length));
      if (path.startsWith('/app/client/') && existsSync(file)) return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file, 'utf8') });
      return route.fulfill({ status: 404, body: 'not found' });
    });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(`${serve.url}/app/?user=${user}`);
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toBe('ready');
    expect(failures).toEqual([]);
    return page;
  }

  async function ask(page: Page, text: string): Promise<void> {
    await page.fill('#prompt', text);
    await page.press('#prompt', 'Enter');
  }

  it('streams a turn into messages: the tool row with its output, then the grounded answer', async () => {
    const page = await openPage('anonymous');
    await ask(page, 'which parts are made of steel?');
    const answer = page.locator('.msg.assistant').last();
    await expect.poll(() => answer.locator('.text').last().textContent(), { timeout: 15_000 }).toContain('Bolt');
    await expect.poll(() => page.locator('#status').textContent()).toBe('ready');
    const rows = answer.locator('.tool');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await rows.first().getAttribute('data-state')).toBe('output-available');
    await page.close();
  });

  it('holds a write on its tool row with the sentence to confirm, and finishes the turn once the person approves', async () => {
    const page = await openPage('alice');
    await ask(page, 'charge order 4411 40.00');
    const row = page.locator('.tool[data-tool="charge_card"]').last();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('approval-requested');
    expect(await page.locator('.confirmation').last().textContent()).toBe('Charge card with amount 40.00 and order id 4411?');
    await row.locator('.approve').click();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('output-available');
    await expect.poll(() => page.locator('#status').textContent()).toBe('ready');
    expect(await page.locator('#error').count()).toBe(0);
    expect(await page.locator('.msg.assistant').last().textContent()).toMatch(/charg/i);
    await page.close();
  });

  it('shows a rejected write as denied, and the next message continues the same thread', async () => {
    const page = await openPage('alice');
    await ask(page, 'charge order 4412 10.00');
    const row = page.locator('.tool[data-tool="charge_card"]').last();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('approval-requested');
    await row.locator('.reject').click();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('output-denied');
    await expect.poll(() => page.locator('#status').textContent()).toBe('ready');
    await ask(page, 'what is the total of order 4412?');
    await expect.poll(() => page.locator('.msg.assistant').count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => page.locator('.msg.assistant').last().locator('.text').last().textContent(), { timeout: 15_000 }).toMatch(/4412/);
    const assistant = page.locator('.msg.assistant');
    const threads = [await assistant.nth(0).getAttribute('data-thread'), await assistant.nth(1).getAttribute('data-thread')];
    expect(threads[0]).not.toBe('');
    expect(threads[1]).toBe(threads[0]);
    await page.close();
  });
});
