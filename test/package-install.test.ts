import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { askConsole, launchChromium, openConsole } from './support/console-page.js';
import { tempDir } from './support/temp.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Plumb as a new user gets it: the packed tarball (built by `npm test`'s pretest) installed into an
 * empty project, `plumb init`, `npm start`, and a first question answered in the console with no
 * model. Plumb itself comes from the tarball; its dependencies from the registry or npm's cache.
 */
describe('the packed package, installed into an empty project', () => {
  const dir = tempDir('plumb-package-');
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    if (server !== undefined && server.exitCode === null) server.kill('SIGTERM');
    dir.remove();
  });

  it('inits an app whose npm start answers a first question in the console', async () => {
    expect(existsSync(join(root, 'dist', 'cli', 'main.js')), 'dist/ is built by npm test (pretest: npm run build)').toBe(true);
    await run(npm, ['pack', '--pack-destination', dir.path], { cwd: root });
    const tarball = readdirSync(dir.path).find((file) => file.endsWith('.tgz'))!;
    const project = join(dir.path, 'project');
    await run('mkdir', [project]);
    await run(npm, ['init', '-y'], { cwd: project });
    await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir.path, tarball)], { cwd: project, timeout: 600_000 });

    const version = await run(join(project, 'node_modules', '.bin', 'plumb'), ['--version'], { cwd: project });
    expect(version.stdout.trim()).toBe('0.1.0');
    const init = await run(join(project, 'node_modules', '.bin', 'plumb'), ['init'], { cwd: project });
    expect(init.stdout).toContain('Added the scripts start, check, migrate to package.json.');

    server = spawn(npm, ['start', '--', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const seen = (chunk: Buffer): void => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1] !== undefined && output.includes('3. ')) resolve(match[1]);
      };
      server!.stdout!.on('data', seen);
      server!.stderr!.on('data', seen);
      server!.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${output}`)));
    });
    expect(output).toContain('1. list the warehouses');

    browser = await launchChromium();
    const page = await browser.newPage();
    await openConsole(page, url, 'anonymous');
    await askConsole(page, 'list the warehouses');
    await expect.poll(() => page.locator('.msg.assistant').last().textContent(), { timeout: 15_000 }).toContain('Porto Docks');
  }, 900_000);
});
