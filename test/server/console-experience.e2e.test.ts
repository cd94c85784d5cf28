import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp, demoActor, demoActorNames, demoChatHost, demoExamples } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createChatStack, createServer, exampleLanguages, parseConfig } from '../../src/server/index.js';
import type { ChatStack, PlumbConfigInput, PlumbServer } from '../../src/server/index.js';
import { askConsole, launchChromium, openConsole } from '../support/console-page.js';

const root = join(import.meta.dirname, '..', '..');
const artifacts = join(root, 'test-artifacts', 'console');
const script = join(root, 'test/server/fixtures/demo-script.json');

interface Served {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `router`: the demo as `npm start` serves it (host tools, router words, no model, the demo's
 * examples with their languages); `model`: every turn to the scripted model; `bare`: an app with
 * no host tools and no examples, read by the router alone.
 */
async function serve(kind: 'router' | 'model' | 'bare', settings: PlumbConfigInput = {}): Promise<Served> {
  const app: App = await createDemoApp({ path: ':memory:' });
  const config = parseConfig({
    store: ':memory:',
    rateLimit: { requests: 10_000 },
    ...(kind === 'model' ? { provider: `scripted:${script}`, router: 'off', allowedMutations: ['createMaterial'], confirmMutations: ['createMaterial'] } : {}),
    ...settings,
  });
  // The demo's tool settings replace the configuration's: a lifetime given here goes into them.
  const demo = demoChatHost(app);
  const host = { ...demo, toolSettings: { ...demo.toolSettings, ...(settings.confirmTimeoutSeconds === undefined ? {} : { confirmTimeoutSeconds: settings.confirmTimeoutSeconds }) } };
  const stack: ChatStack = await createChatStack({ app, config, ...(kind === 'router' ? { host } : {}) });
  const server: PlumbServer = await createServer({
    app,
    engine: stack.engine,
    settings: config,
    login: { names: demoActorNames.filter((name) => name !== 'anonymous'), resolve: (name) => (name === 'anonymous' ? undefined : demoActor(name)) },
    consoleInfo: {
      provider: stack.provider?.name ?? 'none (router only)',
      model: stack.provider?.model ?? '—',
      router: stack.reader === undefined ? 'off' : 'on',
      examples: kind === 'router' ? exampleLanguages(stack.reader, demoExamples) : [],
    },
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

interface Box {
  readonly top: number;
  readonly bottom: number;
  readonly left: number;
  readonly right: number;
}

const boxOf = (page: Page, selector: string): Promise<Box> =>
  page.locator(selector).last().evaluate((node) => {
    // The page's DOM types are not in this project's lib: the element is read as what it is in the browser.
    const rect = (node as unknown as { getBoundingClientRect(): Box }).getBoundingClientRect();
    return { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right };
  });

/** What a person sees: the page does not scroll, the composer is on screen, the last answer is in view. */
async function expectLayoutHolds(page: Page): Promise<void> {
  const viewport = page.viewportSize()!;
  const pageScroll = await page.evaluate<{ height: number; width: number; top: number }>('({ height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth, top: document.scrollingElement.scrollTop })');
  expect(pageScroll.height, 'the page itself does not scroll').toBeLessThanOrEqual(viewport.height);
  expect(pageScroll.width, 'nor sideways').toBeLessThanOrEqual(viewport.width);
  expect(pageScroll.top).toBe(0);
  const composer = await boxOf(page, '#composer');
  expect(composer.top).toBeGreaterThanOrEqual(0);
  expect(composer.bottom).toBeLessThanOrEqual(viewport.height);
  const prompt = await boxOf(page, '#prompt');
  expect(prompt.bottom).toBeLessThanOrEqual(viewport.height);
  const log = await boxOf(page, '#log');
  const answer = await boxOf(page, '.msg.assistant');
  expect(answer.bottom, 'the last answer ends inside the log').toBeLessThanOrEqual(log.bottom + 1);
  expect(answer.bottom, 'and is on screen').toBeGreaterThan(log.top);
}

const lastAnswer = (page: Page) => page.locator('.msg.assistant').last();

/** Sends a message and waits for its turn to end (the Send button comes back). */
async function turn(page: Page, text: string): Promise<void> {
  const answers = await page.locator('.msg.assistant').count();
  await askConsole(page, text);
  await expect.poll(() => page.locator('.msg.assistant').count()).toBeGreaterThan(answers);
  await expect.poll(() => page.locator('#send').isDisabled()).toBe(false);
}

describe('the console holds up after twenty turns', () => {
  let browser: Browser;
  let served: Served;
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    browser = await launchChromium();
    served = await serve('router');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it.each([
    [1280, 800, 'light'],
    [375, 812, 'light'],
    [1280, 800, 'dark'],
    [375, 812, 'dark'],
  ] as const)('at %i×%i (%s): the log scrolls, the composer stays in view, the last answer is visible', async (width, height, colorScheme) => {
    const page = await browser.newPage({ viewport: { width, height }, colorScheme });
    await openConsole(page, served.url, 'bob');
    const questions = ['which parts are made of steel?', 'how many open tasks does Apollo have?', 'show me orders 4411 and 4412', 'who is your favourite poet?'];
    for (let i = 0; i < 20; i++) {
      await turn(page, questions[i % questions.length]!);
      if (i % 5 === 4) await expectLayoutHolds(page);
    }
    expect(await page.locator('.msg.user').count()).toBe(20);
    await page.screenshot({ path: join(artifacts, `twenty-turns-${width}-${colorScheme}.png`) });
    await page.close();
  });

  it('sets the person’s messages on the right and the assistant’s on the left, each labelled', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await openConsole(page, served.url, 'anonymous');
    await turn(page, 'which parts are made of steel?');
    const log = await boxOf(page, '#log');
    const mine = await boxOf(page, '.msg.user');
    const theirs = await boxOf(page, '.msg.assistant');
    expect(log.right - mine.right).toBeLessThan(40);
    expect(mine.left - log.left).toBeGreaterThan((log.right - log.left) / 2);
    expect(theirs.left - log.left).toBeLessThan(40);
    expect(await page.locator('.from-user .who').last().textContent()).toBe('You');
    expect(await page.locator('.from-assistant .who').last().textContent()).toBe('Assistant');
    const colours = await page.evaluate<[string, string]>(`[getComputedStyle(document.querySelector('.msg.user')).backgroundColor, getComputedStyle(document.querySelector('.msg.assistant')).backgroundColor]`);
    expect(colours[0]).not.toBe(colours[1]);
    await page.close();
  });

  it('follows prefers-color-scheme: dark', async () => {
    for (const [colorScheme, dark] of [['dark', true], ['light', false]] as const) {
      const page = await browser.newPage({ colorScheme });
      await openConsole(page, served.url, 'anonymous');
      const background = await page.evaluate<string>("getComputedStyle(document.querySelector('.log')).backgroundColor === 'rgba(0, 0, 0, 0)' ? getComputedStyle(document.documentElement).backgroundColor : getComputedStyle(document.querySelector('.log')).backgroundColor");
      const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
      expect((r! + g! + b!) / 3 < 80, `${colorScheme}: ${background}`).toBe(dark);
      await page.close();
    }
  });

  it('fits a phone: a one-line header, the threads in a drawer that Escape closes', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 812 } });
    await openConsole(page, served.url, 'bob');
    await turn(page, 'which parts are made of steel?');
    const header = await boxOf(page, '.bar');
    expect(header.bottom - header.top).toBeLessThanOrEqual(60);
    expect(await page.locator('#threads').isVisible()).toBe(false);
    const log = await boxOf(page, '#log');
    expect(log.bottom - log.top).toBeGreaterThan(812 * 0.6);
    await page.click('#threads-toggle');
    await expect.poll(() => page.locator('#thread-list button').first().isVisible()).toBe(true);
    expect(await page.getAttribute('#threads-toggle', 'aria-expanded')).toBe('true');
    await page.screenshot({ path: join(artifacts, 'phone-threads-drawer.png'), animations: 'disabled' });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#threads').isVisible()).toBe(false);
    expect(await page.getAttribute('#threads-toggle', 'aria-expanded')).toBe('false');
    await page.click('#settings summary');
    expect(await page.locator('#language').isVisible()).toBe(true);
    await page.screenshot({ path: join(artifacts, 'phone-settings.png') });
    await page.keyboard.press('Escape');
    expect(await page.locator('#language').isVisible()).toBe(false);
    await page.close();
  });

  it('sends on Enter and breaks the line on Shift+Enter', async () => {
    const page = await browser.newPage();
    await openConsole(page, served.url, 'anonymous');
    await page.click('#prompt');
    await page.keyboard.type('which parts');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('are made of steel?');
    expect(await page.inputValue('#prompt')).toBe('which parts\nare made of steel?');
    expect(await page.locator('.msg.user').count()).toBe(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => lastAnswer(page).textContent()).toMatch(/^5 parts where material is Steel/);
    expect(await page.inputValue('#prompt')).toBe('');
    await page.close();
  });

  it('asks the Portuguese example in Portuguese, switching the reading language', async () => {
    const page = await browser.newPage();
    await openConsole(page, served.url, 'anonymous');
    expect(await page.inputValue('#language')).toBe('en');
    const example = page.locator('#examples button', { hasText: 'quais peças são de aço?' });
    expect(await example.locator('.language').textContent()).toBe('pt-BR');
    await example.click();
    await expect.poll(() => lastAnswer(page).textContent()).toMatch(/^5 peças/);
    expect(await page.locator('.plan').last().textContent()).toContain('(pt-BR)');
    expect(await page.inputValue('#language')).toBe('pt-BR');
    expect(await page.textContent('#notice')).toContain('Português (Brasil)');
    await page.screenshot({ path: join(artifacts, 'portuguese-example.png') });
    await page.close();
  });

  it('answers an unread turn, the first and the second time, with what it can do', async () => {
    const page = await browser.newPage();
    await openConsole(page, served.url, 'anonymous');
    for (let i = 0; i < 2; i++) {
      await turn(page, 'who is your favourite poet?');
      const hint = page.locator('.hint').last();
      await hint.waitFor();
      expect(await page.locator('.hint').count()).toBe(i + 1);
      expect(await hint.locator('button').allTextContents()).toContain('which parts are made of steel?');
    }
    await page.locator('.hint').last().locator('button', { hasText: 'how many open tasks does Apollo have?' }).click();
    await expect.poll(() => lastAnswer(page).textContent()).toMatch(/^4 tasks \(count of tasks where /);
    await page.screenshot({ path: join(artifacts, 'unread-with-what-it-can-do.png') });
    await page.close();
  });
});

describe('the confirmation card', () => {
  let browser: Browser;
  let router: Served;
  let model: Served;
  let brief: Served;
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    browser = await launchChromium();
    router = await serve('router');
    model = await serve('model');
    brief = await serve('router', { confirmTimeoutSeconds: 3 });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await router?.close();
    await model?.close();
    await brief?.close();
  });

  const card = (page: Page) => page.locator('.card').last();

  it('shows the router’s sentence for a planned write, with a countdown to its expiry', async () => {
    const page = await browser.newPage();
    await openConsole(page, router.url, 'alice');
    await askConsole(page, 'charge order 4411 40.00');
    await card(page).waitFor();
    expect(await card(page).locator('.sentence').textContent()).toBe('Charge card with amount 40.00 and order id 4411?');
    expect(await card(page).locator('.expiry').textContent()).toMatch(/^Expires in (2\d|30) s \(at .+\)\.$/);
    const first = await card(page).locator('.expiry').textContent();
    await expect.poll(() => card(page).locator('.expiry').textContent(), { timeout: 3000 }).not.toBe(first);
    expect(await card(page).locator('.request').getAttribute('open')).toBeNull();
    await page.screenshot({ path: join(artifacts, 'card-sentence.png') });
    await card(page).locator('button.confirm').click();
    await expect.poll(() => lastAnswer(page).textContent()).toContain('Charged 40.00 to order 4411.');
    expect(await card(page).locator('.outcome').textContent()).toBe('Confirmed and done.');
    await page.close();
  });

  it('makes a sentence of a model’s write from its mutation and input', async () => {
    const page = await browser.newPage();
    await openConsole(page, model.url, 'alice');
    await askConsole(page, 'Please create material titanium');
    await card(page).waitFor();
    expect(await card(page).locator('.sentence').textContent()).toBe('Create a new material with name “Titanium” and density 4.5?');
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Confirm');
    await page.keyboard.press('Enter');
    await expect.poll(() => lastAnswer(page).textContent()).toBe('The change request is finished.');
    await page.close();
  });

  it('keeps what the person types while a card is open, and sends it once the card is answered', async () => {
    const page = await browser.newPage();
    await openConsole(page, router.url, 'alice');
    await askConsole(page, 'charge order 4411 40.00');
    await card(page).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Confirm');
    // The focus is on Confirm: typing goes to the message box, not to the button.
    await page.keyboard.type('and which parts are made of steel?');
    expect(await page.inputValue('#prompt')).toBe('and which parts are made of steel?');
    await page.keyboard.press('Enter');
    expect(await page.inputValue('#prompt')).toBe('and which parts are made of steel?');
    expect(await page.textContent('#notice')).toContain('Confirm or reject the change above first');
    expect(await page.locator('.msg.user').count()).toBe(1);
    expect(await card(page).getAttribute('data-outcome')).toBeNull();
    await card(page).locator('button.reject').click();
    await expect.poll(() => card(page).getAttribute('data-outcome')).toBe('rejected');
    await page.click('#prompt');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.msg.user').count()).toBe(2);
    await expect.poll(() => lastAnswer(page).textContent()).toMatch(/^5 parts where material is Steel/);
    await page.close();
  });

  it('says it expired when nobody confirmed it in time, and takes messages again', async () => {
    const page = await browser.newPage();
    await openConsole(page, brief.url, 'alice');
    await askConsole(page, 'charge order 4411 40.00');
    await card(page).waitFor();
    await expect.poll(() => card(page).getAttribute('data-outcome'), { timeout: 6000 }).toBe('expired');
    expect(await card(page).locator('button.confirm').isDisabled()).toBe(true);
    expect(await card(page).locator('.outcome').textContent()).toMatch(/^Expired at .+: nobody confirmed it in time, so nothing was changed\. Ask again to make the change\.$/);
    await page.screenshot({ path: join(artifacts, 'card-expired.png') });
    await turn(page, 'which parts are made of steel?');
    expect(await lastAnswer(page).textContent()).toMatch(/^5 parts where material is Steel/);
    await page.close();
  });

  it('gives the real reason when a click comes after the server let the confirmation lapse', async () => {
    const page = await browser.newPage();
    // The page's clock runs a minute behind the server's: its card still counts down when the server's has lapsed.
    await page.clock.install({ time: Date.now() - 60_000 });
    await page.clock.resume();
    await openConsole(page, brief.url, 'alice');
    await askConsole(page, 'charge order 4411 40.00');
    await card(page).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await card(page).locator('button.confirm').isEnabled()).toBe(true);
    await card(page).locator('button.confirm').click();
    await expect.poll(() => card(page).getAttribute('data-outcome')).toBe('expired');
    expect(await card(page).locator('.outcome').textContent()).toMatch(/nobody confirmed it in time, so nothing was changed/);
    expect(await card(page).textContent()).not.toMatch(/Confirmed/);
    expect(await page.locator('.error').count()).toBe(0);
    await page.close();
  });

  it('comes back after a reload, still counting down, and can be confirmed', async () => {
    const page = await browser.newPage();
    await openConsole(page, router.url, 'alice');
    await askConsole(page, 'charge order 4411 12.00');
    await card(page).waitFor();
    await page.reload();
    await card(page).waitFor();
    expect(await card(page).locator('.sentence').textContent()).toBe('Charge card with amount 12.00 and order id 4411?');
    expect(await card(page).locator('.expiry').textContent()).toMatch(/^Expires in \d+ s/);
    await expect.poll(() => page.textContent('#transport')).toBe('WebSocket');
    await card(page).locator('button.confirm').click();
    await expect.poll(() => lastAnswer(page).textContent()).toContain('Charged 12.00 to order 4411.');
    await page.close();
  });
});

describe('a host with no tools of its own', () => {
  let browser: Browser;
  let served: Served;
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    browser = await launchChromium();
    served = await serve('bare');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('never shows an empty example, and still says what to ask', async () => {
    const page = await browser.newPage();
    await openConsole(page, served.url, 'anonymous');
    await turn(page, 'hello there');
    const text = (await lastAnswer(page).textContent()) ?? '';
    expect(text).not.toMatch(/""|example: ?\./);
    expect(text).toContain('I could not read that.');
    expect(await page.locator('.hint').last().textContent()).toMatch(/say what to list, count or change/);
    await page.screenshot({ path: join(artifacts, 'unread-host-without-tools.png') });
    await page.close();
  });
});
