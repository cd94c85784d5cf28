import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoActor, demoActorNames, demoChatHost } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, createServer, parseConfig } from '../../src/server/index.js';
import type { ChatStack, PlumbServer } from '../../src/server/index.js';
import { askConsole, launchChromium, openConsole } from '../support/console-page.js';

const root = join(import.meta.dirname, '..', '..');
const artifacts = join(root, 'test-artifacts', 'console');

/** The console as `npm start` serves it: the demo, its host tools and router words, and no model. */
describe('the console on the embedded default (no model)', () => {
  let browser: Browser;
  let app: App;
  let stack: ChatStack;
  let server: PlumbServer;
  let url: string;
  let dir: string;
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'plumb-console-router-'));
    browser = await launchChromium();
    app = await createDemoApp({ path: join(dir, 'demo.sqlite') });
    const config = parseConfig({ store: join(dir, 'chat.sqlite'), rateLimit: { requests: 1000 } });
    stack = await createChatStack({ app, config, host: demoChatHost(app) });
    server = await createServer({
      app,
      engine: stack.engine,
      settings: config,
      login: { names: demoActorNames.filter((name) => name !== 'anonymous'), resolve: (name) => (name === 'anonymous' ? undefined : demoActor(name)) },
      consoleInfo: { provider: 'none (router only)', model: '—', router: 'on', examples: ['which parts are made of steel?', 'how many open tasks does Apollo have?'] },
    });
    url = await server.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await stack?.close();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (page: Page, user: string): Promise<void> => openConsole(page, url, user);
  const ask = askConsole;

  const lastAnswer = (page: Page) => page.locator('.msg.assistant').last();

  it('offers the example questions and answers one from the data, with the plan and the tool row', async () => {
    const page = await browser.newPage();
    await open(page, 'anonymous');
    expect(await page.textContent('#router')).toBe('on (reads each turn first)');
    const example = page.locator('#examples button', { hasText: 'which parts are made of steel?' });
    await example.click();
    await expect.poll(() => lastAnswer(page).textContent()).toContain('5 parts where material is Steel:');
    expect(await lastAnswer(page).textContent()).toContain('Bolt — sku: BLT-100');
    expect(await page.locator('.plan').last().getAttribute('data-outcome')).toBe('run');
    expect(await page.locator('.plan code').last().textContent()).toBe(' query_part');
    expect(await page.locator('details.tool[data-tool="query_part"]').count()).toBe(1);
    expect(await page.locator('#examples').isHidden()).toBe(true);
    await page.screenshot({ path: join(artifacts, 'router-read.png'), fullPage: true });
    await page.close();
  });

  it('counts, and shows many rows as a table', async () => {
    const page = await browser.newPage();
    await open(page, 'anonymous');
    await ask(page, 'how many open tasks does Apollo have?');
    await expect.poll(() => lastAnswer(page).textContent()).toBe('4 tasks (count of tasks where not done, project is Apollo).');
    await ask(page, 'show me all parts');
    await expect.poll(() => lastAnswer(page).locator('table tbody tr').count()).toBe(20);
    expect(await lastAnswer(page).locator('table th').allTextContents()).toEqual(['Name', 'Sku', 'Price', 'Stock']);
    expect(await lastAnswer(page).textContent()).toContain('… and 4 more (total 24).');
    await page.screenshot({ path: join(artifacts, 'router-table.png'), fullPage: true });
    await page.close();
  });

  it('asks for a missing amount, then holds the charge for confirmation and runs it once confirmed', async () => {
    const page = await browser.newPage();
    await open(page, 'alice');
    await page.click('#new-thread');
    await ask(page, 'charge order 4411');
    await expect.poll(() => lastAnswer(page).textContent()).toBe('To charge card, which amount?');
    await ask(page, '40.00');
    const card = page.locator('.card').last();
    await card.waitFor();
    expect(await card.locator('.sentence').textContent()).toBe('Charge card with amount 40.00 and order id 4411?');
    expect(await card.locator('.request code').textContent()).toBe('charge_card');
    await page.screenshot({ path: join(artifacts, 'router-confirmation.png'), fullPage: true });
    await card.locator('button', { hasText: 'Confirm' }).click();
    await expect.poll(() => lastAnswer(page).textContent()).toContain('Charged 40.00 to order 4411.');
    await page.close();
  });

  it('reads Portuguese once the person picks it in the settings, and keeps the choice', async () => {
    const page = await browser.newPage();
    await open(page, 'bob');
    await page.click('#settings summary');
    await page.selectOption('#language', 'pt-BR');
    await ask(page, 'mostre os pedidos 4411 e 4412');
    await expect.poll(() => lastAnswer(page).textContent()).toContain('Pedido 4411');
    expect(await lastAnswer(page).textContent()).toContain('total: 121,00');
    expect(await page.locator('.plan').last().textContent()).toContain('(pt-BR)');
    await page.reload();
    expect(await page.inputValue('#language')).toBe('pt-BR');
    await page.screenshot({ path: join(artifacts, 'router-portuguese.png'), fullPage: true });
    await page.close();
  });

  it('refuses what it cannot read, saying what it can do', async () => {
    const page = await browser.newPage();
    await open(page, 'anonymous');
    await ask(page, 'who is your favourite poet?');
    await expect.poll(() => page.locator('.plan').last().getAttribute('data-outcome')).toBe('unread');
    expect(await lastAnswer(page).textContent()).toMatch(/could not read|not something I can read/);
    await page.close();
  });
});
