import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoActor, demoActorNames } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, createServer, parseConfig } from '../../src/server/index.js';
import type { ChatStack, PlumbConfigInput, PlumbServer } from '../../src/server/index.js';
import { askConsole, launchChromium, openConsole } from '../support/console-page.js';

const root = join(import.meta.dirname, '..', '..');
const artifacts = join(root, 'test-artifacts', 'console');
const script = join(root, 'test/server/fixtures/demo-script.json');

interface Served {
  readonly url: string;
  close(): Promise<void>;
}

async function serveDemo(settings: PlumbConfigInput): Promise<Served> {
  const app: App = await createDemoApp({ path: ':memory:' });
  // The model's console: every turn goes to the scripted model (the router-first console is below).
  const config = parseConfig({ store: ':memory:', provider: `scripted:${script}`, router: 'off', allowedMutations: ['createMaterial'], confirmMutations: ['createMaterial'], ...settings });
  const stack: ChatStack = await createChatStack({ app, config });
  const server: PlumbServer = await createServer({
    app,
    engine: stack.engine,
    settings: config,
    login: { names: demoActorNames.filter((name) => name !== 'anonymous'), resolve: (name) => (name === 'anonymous' ? undefined : demoActor(name)) },
    consoleInfo: { provider: stack.provider?.name ?? 'none', model: stack.provider?.model ?? '—' },
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    close: async () => {
      await server.close();
      await stack.close();
      await app.close();
    },
  };
}

describe('the console in headless Chromium', () => {
  let browser: Browser;
  let served: Served;
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    browser = await launchChromium();
    served = await serveDemo({ rateLimit: { requests: 1000 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const signIn = (page: Page, user: string): Promise<void> => openConsole(page, served.url, user);
  const ask = askConsole;

  it('signs in, streams an answer with its tool row and table, and lists the thread', async () => {
    const page = await browser.newPage();
    await signIn(page, 'alice');
    expect(await page.textContent('#provider')).toBe('scripted');
    expect(await page.textContent('#model')).toBe('scripted-demo');
    await ask(page, 'Which materials do we use?');
    const answer = page.locator('.msg.assistant').last();
    await answer.waitFor();
    await expect.poll(() => answer.textContent()).toBe('Here are the materials the shop uses, with their densities.');
    const row = page.locator('details.tool[data-tool="query"]').first();
    await row.locator('summary').click();
    expect(await row.locator('table th').allTextContents()).toEqual(['name', 'density']);
    expect(await row.locator('tbody tr').count()).toBe(5);
    await expect.poll(() => page.locator('#thread-list button').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(artifacts, 'answer-with-tool-rows.png'), fullPage: true });
    await page.close();
  });

  it('shows a write as a confirmation card, confirms it with the keyboard, and shows the result', async () => {
    const page = await browser.newPage();
    await signIn(page, 'alice');
    await ask(page, 'Please create material titanium');
    const card = page.locator('.card').last();
    await card.waitFor();
    expect(await card.locator('.sentence').textContent()).toBe('Create a new material with name “Titanium” and density 4.5?');
    expect(await card.locator('.request pre').textContent()).toContain('"Titanium"');
    expect(await page.locator('details.tool[data-tool="mutate"] .status').last().textContent()).toBe('waiting for your confirmation');
    await page.screenshot({ path: join(artifacts, 'confirmation-card.png'), fullPage: true });
    // The Confirm button has the focus: Enter confirms.
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Confirm');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.msg.assistant').last().textContent()).toBe('The change request is finished.');
    const result = page.locator('details.tool[data-tool="mutate"] .status').last();
    await expect.poll(() => result.getAttribute('class')).toBe('status ok');
    expect(await page.locator('details.tool[data-tool="mutate"]').count()).toBe(1);
    await page.screenshot({ path: join(artifacts, 'confirmed-write.png'), fullPage: true });
    await page.close();
  });

  it('rejects a write over SSE and says nothing changed', async () => {
    const page = await browser.newPage();
    await signIn(page, 'alice');
    await page.click('#settings summary');
    await page.check('#force-sse');
    await expect.poll(() => page.textContent('#transport')).toBe('SSE (streaming fetch)');
    await ask(page, 'create material titanium again');
    const card = page.locator('.card').last();
    await card.waitFor();
    await card.locator('button.reject').click();
    await expect.poll(() => page.locator('.msg.assistant').last().textContent()).toBe('The change request is finished.');
    const result = page.locator('details.tool[data-tool="mutate"]').last();
    await result.locator('summary').click();
    expect(await result.locator('.body').textContent()).toMatch(/reject/i);
    await page.screenshot({ path: join(artifacts, 'rejected-write-sse.png'), fullPage: true });
    await page.close();
  });

  it('says a message is too long before sending it, keeps its text to shorten, and goes on chatting', async () => {
    const page = await browser.newPage();
    await signIn(page, 'anonymous');
    await ask(page, 'a'.repeat(70 * 1024));
    const tooLong = page.locator('.error').last();
    await tooLong.waitFor();
    expect(await tooLong.locator('code').textContent()).toBe('payload_too_large');
    expect(await tooLong.textContent()).toMatch(/at most 65536/);
    expect((await page.inputValue('#prompt')).length).toBe(70 * 1024);
    expect(await page.locator('.msg.user').count()).toBe(0);
    await ask(page, 'Which materials do we use?');
    await expect.poll(() => page.locator('.msg.assistant').last().textContent()).toBe('Here are the materials the shop uses, with their densities.');
    await page.close();
  });

  it('fits a narrow screen', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await page.goto(`${served.url}/console/`);
    await ask(page, 'Which materials do we use?');
    await expect.poll(() => page.locator('.msg.assistant').last().textContent()).toBe('Here are the materials the shop uses, with their densities.');
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(artifacts, 'narrow-screen.png'), fullPage: true });
    await page.close();
  });
});

describe('the console under a rate limit', () => {
  let browser: Browser;
  let served: Served;
  beforeAll(async () => {
    browser = await launchChromium();
    served = await serveDemo({ rateLimit: { requests: 1, windowSeconds: 600 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('shows rate_limited with a countdown', async () => {
    const page = await browser.newPage();
    await page.goto(`${served.url}/console/`);
    await page.fill('#prompt', 'Which materials do we use?');
    await page.press('#prompt', 'Enter');
    await page.locator('.msg.assistant').last().waitFor();
    await expect.poll(() => page.locator('#send').isDisabled()).toBe(false);
    await page.fill('#prompt', 'And again?');
    await page.press('#prompt', 'Enter');
    const error = page.locator('.error').last();
    await error.waitFor();
    expect(await error.locator('code').textContent()).toBe('rate_limited');
    expect(await error.locator('.countdown').textContent()).toMatch(/Retry in \d+ s/);
    await page.screenshot({ path: join(artifacts, 'rate-limited.png'), fullPage: true });
    await page.close();
  });
});
