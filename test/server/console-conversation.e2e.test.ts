import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoActor, demoActorNames } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, createLocalThreadEvents, createServer, parseConfig } from '../../src/server/index.js';
import type { ChatStack, PlumbServer, ThreadEvents } from '../../src/server/index.js';
import { defineTool } from '../../src/tools/index.js';
import { askConsole, launchChromium, openConsole } from '../support/console-page.js';
import { tempDir } from '../support/temp.js';

// Screenshots for a person to look at (not compared).
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts', 'console');
mkdirSync(artifacts, { recursive: true });

/**
 * The scripted model, whose answer the message's words choose:
 * - `slow …`: twenty words 100 ms apart (a turn that streams for two seconds);
 * - `once …`: the same the first time, `Quick now.` after that (a stopped turn to retry);
 * - `create material …`: a write that waits for a confirmation, then `The change is made.`;
 * - `touch …`: a write that never finishes (a stop leaves its outcome unknown);
 * - `pick …`: asks the person which material, then answers with what they chose;
 * - `regen …`: `First take.` the first time, `Second take.` after that (an answer to regenerate);
 * - `flaky …`: rate limited the first time (Retry-After 1 s), `Back again.` on the retry;
 * - anything else: `Echo.`.
 */
const words = Array.from({ length: 20 }, (_, i) => `word${i} `);
const script = {
  completions: [
    { when: { toolName: 'mutate' }, text: ['The change ', 'is made.'], repeat: true },
    { when: { toolResultContains: 'answer' }, text: 'Aluminum, then.', repeat: true },
    { when: { userTextContains: 'create material' }, toolCalls: [{ name: 'mutate', arguments: { mutation: 'createMaterial', input: { name: 'Titanium', density: 4.5 } } }], repeat: true },
    { when: { userTextContains: 'touch' }, toolCalls: [{ name: 'touch', arguments: { id: 1 } }], repeat: true },
    { when: { userTextContains: 'pick' }, toolCalls: [{ id: 'q1', name: 'ask_user', arguments: { question: 'Which material?', choices: ['Steel', 'Aluminum'], allow_free_text: true } }], repeat: true },
    { when: { userTextContains: 'regen' }, text: 'First take.' },
    { when: { userTextContains: 'regen' }, text: 'Second take.', repeat: true },
    { when: { userTextContains: 'once' }, text: words, chunkDelayMs: 100 },
    { when: { userTextContains: 'once' }, text: 'Quick now.', repeat: true },
    { when: { userTextContains: 'slow' }, text: words, chunkDelayMs: 100, repeat: true },
    { when: { userTextContains: 'flaky' }, error: { status: 429, retryAfterSeconds: 1 } },
    { when: { userTextContains: 'flaky' }, text: 'Back again.', repeat: true },
    { text: 'Echo.', repeat: true },
  ],
};

describe('conversations in the console: stop and retry, live views, the queue, questions', () => {
  const dir = tempDir('plumb-console-conversation-');
  let browser: Browser;
  let app: App;
  let events: ThreadEvents;
  let stack: ChatStack;
  let server: PlumbServer;
  let url: string;
  beforeAll(async () => {
    browser = await launchChromium();
    const path = join(dir.path, 'script.json');
    writeFileSync(path, JSON.stringify(script));
    app = await createDemoApp({ path: ':memory:' });
    const config = parseConfig({
      store: ':memory:',
      provider: `scripted:${path}`,
      router: 'off',
      askUserTool: true,
      allowedMutations: ['createMaterial'],
      confirmMutations: ['createMaterial'],
      rateLimit: { requests: 10_000 },
      gracefulCancelMs: 1500,
    });
    events = createLocalThreadEvents();
    const touch = defineTool({ name: 'touch', description: 'Marks a part as seen.', input: z.object({ id: z.number() }), effect: 'write', confirm: false, handler: () => new Promise(() => undefined) });
    stack = await createChatStack({ app, config, events, host: { tools: [touch] } });
    server = await createServer({
      app,
      engine: stack.engine,
      settings: config,
      login: { names: demoActorNames.filter((name) => name !== 'anonymous'), resolve: (name) => (name === 'anonymous' ? undefined : demoActor(name)) },
      following: { store: stack.store, events },
    });
    url = await server.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await stack?.close();
    await events?.close();
    await app?.close();
    dir.remove();
  });

  const lastAnswer = (page: Page) => page.locator('.msg.assistant').last();
  const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

  /** A page of its own (cookies and all), signed in as alice, on a new thread. */
  async function freshPage(context?: BrowserContext): Promise<Page> {
    const page = await (context ?? (await browser.newContext())).newPage();
    await openConsole(page, url, 'alice');
    return page;
  }

  it('stops a running turn with Stop and runs it again with Retry, each text shown once', async () => {
    const page = await freshPage();
    await askConsole(page, 'stop me once');
    await expect.poll(() => lastAnswer(page).textContent()).toMatch(/word1 /);
    expect(await page.locator('#stop').isVisible()).toBe(true);
    await page.click('#stop');
    const error = page.locator('.error').last();
    await error.waitFor();
    expect(await error.locator('code').textContent()).toBe('cancelled');
    expect(await page.locator('#stop').isVisible()).toBe(false);
    await error.locator('button.retry', { hasText: 'Retry' }).click();
    await expect.poll(() => lastAnswer(page).textContent()).toBe('Quick now.');
    await expect.poll(() => page.locator('#send').isDisabled()).toBe(false);
    expect(await page.locator('button.retry').count()).toBe(0);
    expect(await texts(page, '.msg.user')).toEqual(['stop me once']);
    expect((await texts(page, '.msg.assistant')).filter((text) => text === 'Quick now.')).toHaveLength(1);
    await page.close();
  });

  it('regenerates the latest answer with Regenerate: the old one stays, folded as superseded, after a reload too', async () => {
    const page = await freshPage();
    await askConsole(page, 'regen this please');
    await expect.poll(() => lastAnswer(page).textContent()).toBe('First take.');
    const regenerate = page.locator('button.regenerate');
    await regenerate.waitFor();
    expect(await regenerate.count()).toBe(1);
    await regenerate.click();
    await expect.poll(() => lastAnswer(page).textContent()).toBe('Second take.');
    expect(await texts(page, '.entry.superseded .msg.assistant')).toEqual(['First take.']);
    expect(await texts(page, '.entry:not(.superseded) .msg.assistant')).toEqual(['Second take.']);
    expect(await texts(page, '.msg.user')).toEqual(['regen this please']);
    await page.locator('button.regenerate').waitFor();
    await page.screenshot({ path: join(artifacts, 'regenerated.png') });
    await page.reload();
    await expect.poll(() => texts(page, '.entry.superseded .msg.assistant')).toEqual(['First take.']);
    expect(await texts(page, '.entry:not(.superseded) .msg.assistant')).toEqual(['Second take.']);
    await page.locator('button.regenerate').waitFor();
    await page.close();
  });

  it('shows Stopping… while a stop waits for a running tool, then keeps the queued message until Send now', async () => {
    const page = await freshPage();
    await askConsole(page, 'touch part 1');
    await page.locator('details.tool[data-tool="touch"]').waitFor();
    await page.fill('#prompt', 'after the stop');
    await page.click('#queue-send');
    const queue = page.locator('#queue li[data-queue]');
    await expect.poll(() => queue.count()).toBe(1);
    const threadId = String(await page.evaluate('sessionStorage.getItem("plumb.thread")'));
    // Another client stops it gracefully: the running tool gets gracefulCancelMs, and every tab shows the stop meanwhile.
    const stopped = stack.engine.cancel({ threadId, mode: 'graceful' });
    await expect.poll(() => page.locator('#stop').textContent()).toBe('Stopping…');
    expect(await page.locator('#stop').isDisabled()).toBe(true);
    await page.screenshot({ path: join(artifacts, 'stopping.png') });
    await stopped;
    await expect.poll(() => page.locator('#stop').isVisible()).toBe(false);
    await expect.poll(() => texts(page, '#queue .queue-held')).toEqual(['Stopped. These wait for you: send one now, or remove it.']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await texts(page, '.msg.user')).toEqual(['touch part 1']);
    expect(await queue.count()).toBe(1);
    await page.screenshot({ path: join(artifacts, 'queue-held-after-stop.png') });
    await queue.first().locator('button', { hasText: 'Send now' }).click();
    await expect.poll(() => texts(page, '.msg.user')).toEqual(['touch part 1', 'after the stop']);
    await expect.poll(() => lastAnswer(page).textContent()).toBe('Echo.');
    await expect.poll(() => page.locator('#queue').isVisible()).toBe(false);
    await page.close();
  });

  it('says why a turn stopped during a write is not run again', async () => {
    const page = await freshPage();
    await askConsole(page, 'touch part 1');
    await page.locator('details.tool[data-tool="touch"]').waitFor();
    await page.click('#stop');
    const error = page.locator('.error').last();
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^cancelled: .*whether it took effect is unknown/);
    await error.locator('button.retry').click();
    const refusal = page.locator('.error').last();
    await expect.poll(() => refusal.locator('code').textContent()).toBe('not_retryable');
    expect(await refusal.textContent()).toMatch(/^not_retryable \(effect_outcome_unknown\): .*the change might run twice/);
    await expect.poll(() => page.locator('#send').isDisabled()).toBe(false);
    await page.close();
  });

  it('shows the running turn after a reload, streaming on to its end, and nothing twice', async () => {
    const page = await freshPage();
    await askConsole(page, 'slow words please');
    await expect.poll(() => lastAnswer(page).textContent()).toMatch(/word2 /);
    await page.reload();
    await expect.poll(() => page.textContent('#transport')).toBe('WebSocket');
    expect(await texts(page, '.msg.user')).toEqual(['slow words please']);
    // The text shown so far is back, and the rest streams in behind it.
    await expect.poll(() => lastAnswer(page).textContent()).toMatch(/^word0 word1 word2 /);
    expect(await page.locator('#stop').isVisible()).toBe(true);
    await expect.poll(() => lastAnswer(page).textContent(), { timeout: 5000 }).toBe(words.join(''));
    expect(await page.locator('.msg.assistant').count()).toBe(1);
    await expect.poll(() => page.locator('#stop').isVisible()).toBe(false);
    await page.close();
  });

  it('shows the pending confirmation card after a reload, and confirming it there finishes the turn', async () => {
    const page = await freshPage();
    await askConsole(page, 'Please create material titanium');
    await page.locator('.card').waitFor();
    await page.reload();
    const card = page.locator('.card').last();
    await card.waitFor();
    await expect.poll(() => page.textContent('#transport')).toBe('WebSocket');
    expect(await card.locator('.sentence').textContent()).toBe('Create a new material with name “Titanium” and density 4.5?');
    await card.locator('button.confirm').click();
    await expect.poll(() => lastAnswer(page).textContent()).toBe('The change is made.');
    expect(await card.locator('.outcome').textContent()).toBe('Confirmed and done.');
    expect(await page.locator('.card').count()).toBe(1);
    expect(await page.locator('.msg.assistant').count()).toBe(1);
    await page.close();
  });

  /** Switches a tab to SSE in its settings, as a person does, and closes them again. */
  async function switchToSse(page: Page): Promise<void> {
    await page.click('#settings summary');
    await page.check('#force-sse');
    await expect.poll(() => page.textContent('#transport')).toBe('SSE (streaming fetch)');
    await page.click('#settings summary');
  }

  it('lets a second tab follow the first: its message, its streamed answer, its card and the card’s resolution', async () => {
    const context = await browser.newContext();
    const first = await freshPage(context);
    await askConsole(first, 'hello');
    await expect.poll(() => lastAnswer(first).textContent()).toBe('Echo.');
    const second = await freshPage(context);
    // The most recent thread is the first's.
    await second.locator('#thread-list button').first().click();
    await expect.poll(() => lastAnswer(second).textContent()).toBe('Echo.');

    await askConsole(first, 'slow words please');
    // The second tab sees the answer while it streams, not only once it is done.
    await expect.poll(() => lastAnswer(second).textContent()).toMatch(/^word0 word1 /);
    expect(await lastAnswer(first).getAttribute('class')).toContain('streaming');
    expect(await second.locator('#stop').isVisible()).toBe(true);
    await expect.poll(() => lastAnswer(second).textContent(), { timeout: 5000 }).toBe(words.join(''));

    await askConsole(first, 'create material titanium');
    const card = second.locator('.card').last();
    await card.waitFor();
    expect(await card.locator('.sentence').textContent()).toBe('Create a new material with name “Titanium” and density 4.5?');
    await first.locator('.card button.confirm').click();
    await expect.poll(() => card.getAttribute('data-outcome')).toBe('done');
    await expect.poll(() => lastAnswer(second).textContent()).toBe('The change is made.');
    await expect.poll(() => lastAnswer(first).textContent()).toBe('The change is made.');
    for (const page of [first, second]) {
      expect(await texts(page, '.msg.user')).toEqual(['hello', 'slow words please', 'create material titanium']);
      expect(await texts(page, '.msg.assistant')).toEqual(['Echo.', words.join(''), 'The change is made.']);
    }
    await context.close();
  });

  it("shows the run's phase while it waits for a confirmation, and a retry's line (attempt, limit, time, reason) live and after a reload", async () => {
    const page = await freshPage();
    await askConsole(page, 'create material titanium');
    await page.locator('.card').last().waitFor();
    await expect.poll(() => page.locator('#phase').textContent()).toBe('Waiting for your confirmation.');
    expect(await page.locator('#phase').getAttribute('data-phase')).toBe('awaiting_approval');
    await page.locator('.card button.confirm').click();
    await expect.poll(() => lastAnswer(page).textContent()).toBe('The change is made.');
    await expect.poll(() => page.locator('#phase').isVisible()).toBe(false);

    await askConsole(page, 'flaky now');
    const line = page.locator('.retry-line').last();
    await line.waitFor();
    expect(await line.textContent()).toMatch(/^retrying 1 of 4 at \d{1,2}:\d{2}:\d{2}( [AP]M)? — rate limited$/);
    await expect.poll(() => lastAnswer(page).textContent(), { timeout: 5000 }).toBe('Back again.');
    // The journal's mark says the same after a reload.
    await page.reload();
    await expect.poll(() => page.locator('.retry-line').last().textContent()).toMatch(/^retrying 1 of 4 at \d{1,2}:\d{2}:\d{2}( [AP]M)? — rate limited$/);
    await expect.poll(() => lastAnswer(page).textContent()).toBe('Back again.');
    await page.close();
  });

  it('follows a thread over SSE in a tab switched to SSE before it followed anything, since the session says views are served', async () => {
    const context = await browser.newContext();
    const first = await freshPage(context);
    await askConsole(first, 'hello again');
    await expect.poll(() => lastAnswer(first).textContent()).toBe('Echo.');
    const second = await freshPage(context);
    // Its socket opened, but it never subscribed over it: only the session can say views exist.
    await switchToSse(second);
    await second.locator('#thread-list button').first().click();
    await expect.poll(() => lastAnswer(second).textContent()).toBe('Echo.');
    await askConsole(first, 'slow words again');
    await expect.poll(() => lastAnswer(second).textContent()).toMatch(/^word0 word1 /);
    await expect.poll(() => lastAnswer(second).textContent(), { timeout: 5000 }).toBe(words.join(''));
    await context.close();
  });

  it('says so when the open conversation is deleted elsewhere, over the socket and over SSE, stops following it, and the next message starts a new one', async () => {
    for (const sse of [false, true]) {
      const context = await browser.newContext();
      const first = await freshPage(context);
      await askConsole(first, sse ? 'doomed over sse' : 'doomed');
      await expect.poll(() => lastAnswer(first).textContent()).toBe('Echo.');
      const second = await freshPage(context);
      if (sse) await switchToSse(second);
      await second.locator('#thread-list button').first().click();
      await expect.poll(() => lastAnswer(second).textContent()).toBe('Echo.');
      const thread = await first.evaluate<string>("sessionStorage.getItem('plumb.thread')");
      // The console has no delete button: the thread goes through the protocol, as another client of alice's deletes it
      // (in a context of its own, whose CSRF cookie is not the tabs').
      const elsewhere = await freshPage();
      const deleted = await elsewhere.evaluate<unknown>(`fetch('/chat/csrf/').then((response) => response.json()).then(({ token }) => fetch('/chat/threads/${thread}/delete/', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: '{}' })).then((response) => response.json())`);
      expect(deleted).toEqual({ deleted: true });
      await elsewhere.context().close();
      for (const page of [first, second]) {
        await expect.poll(() => page.locator('.gone').allTextContents()).toEqual(['This conversation was deleted.']);
        // What it showed stays on the page.
        expect(await texts(page, '.msg.user')).toEqual([sse ? 'doomed over sse' : 'doomed']);
      }
      expect(await second.evaluate<string | null>("sessionStorage.getItem('plumb.thread')")).toBeNull();
      await askConsole(second, 'a new start');
      await expect.poll(() => texts(second, '.msg.assistant')).toEqual(['Echo.', 'Echo.']);
      await expect.poll(() => second.evaluate<string | null>("sessionStorage.getItem('plumb.thread')")).not.toBeNull();
      expect(await second.evaluate<string | null>("sessionStorage.getItem('plumb.thread')")).not.toBe(thread);
      // The first tab follows the deleted thread no more: the new one's message does not show there.
      expect(await texts(first, '.msg.user')).toEqual([sse ? 'doomed over sse' : 'doomed']);
      await context.close();
    }
  }, 60_000);

  it('queues a message sent while a turn runs, with its place; it is edited, another removed, and it runs after the turn', async () => {
    const page = await freshPage();
    await askConsole(page, 'slow words please');
    await expect.poll(() => lastAnswer(page).textContent()).toMatch(/word0 /);
    expect(await page.locator('#queue-send').isVisible()).toBe(true);
    await askConsole(page, 'first in line');
    await page.fill('#prompt', 'second in line');
    await page.click('#queue-send');
    const queue = page.locator('#queue li');
    await expect.poll(() => queue.count()).toBe(2);
    expect(await queue.first().locator('.position').textContent()).toBe('Queued · 1');
    expect(await queue.last().locator('.position').textContent()).toBe('Queued · 2');
    await page.screenshot({ path: join(artifacts, 'queue-while-streaming.png') });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: join(artifacts, 'queue-while-streaming-phone.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await queue.last().locator('button', { hasText: 'Remove' }).click();
    await expect.poll(() => queue.count()).toBe(1);
    await queue.first().locator('button', { hasText: 'Edit' }).click();
    await queue.first().locator('input').fill('first, edited');
    await queue.first().locator('button', { hasText: 'Save' }).click();
    await expect.poll(() => queue.first().locator('.queued-text').textContent()).toBe('first, edited');
    expect(await texts(page, '.msg.user')).toEqual(['slow words please']);
    // The turn ends; the queued message runs as the next one.
    await expect.poll(() => texts(page, '.msg.user'), { timeout: 5000 }).toEqual(['slow words please', 'first, edited']);
    await expect.poll(() => texts(page, '.msg.assistant')).toEqual([words.join(''), 'Echo.']);
    expect(await page.locator('#queue').isVisible()).toBe(false);
    await expect.poll(() => page.locator('#send').isDisabled()).toBe(false);
    await page.close();
  });

  it.each(['WebSocket', 'SSE'] as const)('answers a question card with a choice or free text, over %s, and the turn goes on', async (transport) => {
    const page = await freshPage();
    if (transport === 'SSE') {
      await page.click('#settings summary');
      await page.check('#force-sse');
      await expect.poll(() => page.textContent('#transport')).toBe('SSE (streaming fetch)');
      await page.click('#prompt');
    }
    await askConsole(page, 'pick a material for me');
    const card = page.locator('.card.question').last();
    await card.waitFor();
    expect(await card.locator('.sentence').textContent()).toBe('Which material?');
    expect(await card.locator('.actions button').allTextContents()).toEqual(['Steel', 'Aluminum']);
    if (transport === 'WebSocket') await card.locator('button', { hasText: 'Aluminum' }).click();
    else {
      await card.getByLabel('Your answer').fill('aluminum');
      await card.locator('button', { hasText: 'Answer' }).click();
    }
    await expect.poll(() => lastAnswer(page).textContent()).toBe('Aluminum, then.');
    expect(await card.getAttribute('data-outcome')).toBe('answered');
    expect(await card.locator('.outcome').textContent()).toMatch(/^Answered: (Aluminum|aluminum)$/);
    expect(await card.locator('button.choice').first().isDisabled()).toBe(true);
    await page.close();
  });
});
