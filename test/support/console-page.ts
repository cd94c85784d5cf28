import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium, headless, with nothing reaching out of the machine. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Opens the console once its socket is up, signed in as `user` (anonymous: as it opens). */
export async function openConsole(page: Page, url: string, user: string): Promise<void> {
  await page.goto(`${url}/console/`);
  await expect.poll(() => page.textContent('#transport')).toBe('WebSocket');
  if (user === 'anonymous') return;
  await page.selectOption('#user', user);
  await Promise.all([page.waitForEvent('load'), page.click('#login button')]);
  await expect.poll(() => page.inputValue('#user')).toBe(user);
}

/** Types a message and sends it with Enter, as a person does. */
export async function askConsole(page: Page, text: string): Promise<void> {
  await page.fill('#prompt', text);
  await page.press('#prompt', 'Enter');
}
