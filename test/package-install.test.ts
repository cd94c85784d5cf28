import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Browser } from 'playwright-core';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askConsole, launchChromium, openConsole } from './support/console-page.js';
import { npm, npmInstall, packCleanClone, printedUrl, run } from './support/packed-package.js';
import type { Packed } from './support/packed-package.js';
import { tempDir } from './support/temp.js';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; exports: Record<string, unknown> };
const listening = /listening on (http:\/\/\S+)/;

/** Kibibytes of the files in a folder (`du --apparent-size`: their bytes, not the disk blocks they round up to). */
async function installedKiB(folder: string): Promise<number> {
  return Number((await run('du', ['-sk', '--apparent-size', folder])).stdout.split(/\s/)[0]);
}

/**
 * Plumb as a new user gets it: a clean clone (no dist/) packed with `npm pack`, whose prepack builds
 * it, and the tarball installed into an empty project. Plumb itself comes from the tarball; its
 * dependencies from the registry or npm's cache. What was packed, what got installed and its size,
 * every entry point, the bin, `serve --demo` over HTTP, `mcp` over stdio, and `plumb init` +
 * `npm start` answering in the console.
 */
describe('the packed package, installed into an empty project', () => {
  const dir = tempDir('plumb-package-');
  const project = join(dir.path, 'project');
  const bin = join(project, 'node_modules', '.bin', 'plumb');
  const children: ChildProcess[] = [];
  let packed: Packed;
  let installOutput: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    packed = await packCleanClone(dir.path);
    expect(packed.cloneHadDist, 'a clean clone has no dist/').toBe(false);
    await run('mkdir', [project]);
    await run(npm, ['init', '-y'], { cwd: project });
    installOutput = await npmInstall(project, [packed.tarball]);
  }, 900_000);
  afterAll(async () => {
    await browser?.close();
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    dir.remove();
  });

  it('packs the build, the README and the LICENSE, and no test code', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/cli/main.js', 'dist/client/index.js', 'dist/mcp/index.js']));
    expect(paths.filter((path) => !path.startsWith('dist/') && !path.startsWith('evals/datasets/') && !['LICENSE', 'README.md', 'package.json'].includes(path))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['evals/datasets/demo-default.yaml', 'evals/datasets/planned-orchestration.yaml']));
    expect(paths.filter((path) => /\.test\.|\.fixture\.|test-support|\/testing\/|database-conformance/.test(path) && !path.startsWith('dist/testing/'))).toEqual([]);
    // vitest is imported by the store conformance suite alone, which only plumb/testing loads.
    const dist = join(project, 'node_modules', 'plumb-agent', 'dist');
    const vitestImports = paths.filter((path) => path.endsWith('.js') && /from ['"]vitest['"]/.test(readFileSync(join(dist, '..', path), 'utf8')));
    expect(vitestImports).toEqual(['dist/store/conformance.js']);
    const conformanceImports = paths.filter((path) => path.endsWith('.js') && /from ['"][^'"]*conformance\.js['"]/.test(readFileSync(join(dist, '..', path), 'utf8')));
    expect(conformanceImports).toEqual(['dist/testing/index.js']);
  });

  it('installs no development tooling, and no dependency that refuses this Node', () => {
    for (const tool of ['tsx', 'esbuild', '@fastify/cookie', 'vitest', 'typescript']) {
      expect(existsSync(join(project, 'node_modules', tool)), `node_modules/${tool}`).toBe(false);
    }
    // An optional peer: exact counts for OpenAI-family models when the host installs it, an estimate otherwise.
    expect(existsSync(join(project, 'node_modules', 'gpt-tokenizer')), 'node_modules/gpt-tokenizer').toBe(false);
    expect(installOutput).not.toMatch(/EBADENGINE/);
  });

  it('installs at most 100 MB of files', async () => {
    expect(await installedKiB(join(project, 'node_modules'))).toBeLessThanOrEqual(100 * 1024);
  });

  it('imports every entry point; plumb/testing names vitest, which it alone needs', async () => {
    const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json' && subpath !== './testing');
    const specifiers = subpaths.map((subpath) => (subpath === '.' ? 'plumb-agent' : `plumb-agent/${subpath.slice(2)}`));
    const script = `for (const s of ${JSON.stringify(specifiers)}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); } console.log('ok');`;
    expect((await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })).stdout.trim()).toBe('ok');
    const testing = await run(process.execPath, ['--input-type=module', '-e', "await import('plumb-agent/testing')"], { cwd: project }).then(
      () => '',
      (error: { stderr: string }) => error.stderr,
    );
    expect(testing).toMatch(/Cannot find package 'vitest'/);
  });

  it('passes publint and attw, and its types check in a strict TypeScript consumer of every entry point', async () => {
    const lint = await publint({ pkgDir: join(project, 'node_modules', 'plumb-agent'), level: 'suggestion', pack: false });
    expect(lint.messages).toEqual([]);
    const { tarball } = packed;
    // ESM only, as the package says: CommonJS and node10 resolution are out of its scope.
    const attw = await run(join(root, 'node_modules', '.bin', 'attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], { maxBuffer: 16 * 1024 * 1024 }).then(
      (done) => ({ code: 0, stdout: done.stdout }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(attw.code, attw.stdout).toBe(0);

    const consumer = join(dir.path, 'consumer');
    mkdirSync(consumer);
    await run(npm, ['init', '-y'], { cwd: consumer });
    // Every face, the AI SDK bridge's too: its types are the optional peer's (which needs @types/json-schema under skipLibCheck: false).
    await npmInstall(consumer, [tarball, '@types/node@20', '@ai-sdk/provider@3', '@types/json-schema']);
    // plumb-agent/testing is a vitest suite: its declarations name vitest's types, which its users (test code) have.
    const faces = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json' && subpath !== './testing').map((subpath) => (subpath === '.' ? 'plumb-agent' : `plumb-agent/${subpath.slice(2)}`));
    const source = faces.map((face, index) => `import * as face${index} from '${face}';`).join('\n');
    writeFileSync(join(consumer, 'index.ts'), `${source}\nimport { defineConfig, defineManager } from 'plumb-agent';\nexport const faces = [${faces.map((_face, index) => `face${index}`).join(', ')}];\nexport const config = defineConfig({ port: 8787 });\nexport const note = defineManager({ name: 'Note', fields: { body: 'string' }, chatExposed: true });\n`);
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] }, files: ['index.ts'] }));
    const checked = await run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: consumer }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(checked).toBe('');
  }, 900_000);

  it('runs the compiled bin: --version and --help', async () => {
    expect((await run(bin, ['--version'], { cwd: project })).stdout.trim()).toBe(manifest.version);
    const help = await run(bin, ['--help'], { cwd: project });
    for (const command of ['serve', 'ask', 'tool', 'mcp', 'init', 'eval']) expect(help.stdout).toContain(`  ${command} `);
    expect(readFileSync(join(project, 'node_modules', 'plumb-agent', 'dist', 'cli', 'main.js'), 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
  });

  it('plays a packaged eval dataset with the installed bin, and exits 2 naming the datasets for an unknown one', async () => {
    const played = await run(bin, ['eval', '--dataset', 'planned-orchestration'], { cwd: project });
    expect(played.stdout).toContain('cases: 16 passed, 0 failed, 0 skipped (of 16)');
    const unknown = await run(bin, ['eval', '--dataset', 'nope'], { cwd: project }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/eval_dataset_unknown: .*large-schema, league, model-basics, model-discovery, observatory, planned-orchestration/);
  });

  it('serves the demo on a free port and answers one turn over HTTP', async () => {
    const child = spawn(bin, ['serve', '--demo', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const { url } = await printedUrl(child, listening);
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    const turn = await fetch(`${url}/chat/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-plumb-user': 'bob' }, body: JSON.stringify({ text: 'which parts are made of steel?' }) });
    expect(turn.status).toBe(200);
    expect(((await turn.json()) as { answer: string }).answer).toContain('Bolt');
    child.kill('SIGTERM');
  }, 60_000);

  it('serves its tools over MCP on stdio, for a client that spawns plumb mcp', async () => {
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--demo', '--database', ':memory:', '--as', 'bob'], cwd: project, stderr: 'pipe' }));
    try {
      const result = await client.callTool({ name: 'get_order', arguments: { order_id: '4411' } });
      expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toMatchObject({ order_id: '4411' });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('inits an app whose npm start answers a first question in the console', async () => {
    const init = await run(bin, ['init'], { cwd: project });
    expect(init.stdout).toContain('Added the scripts start, check, migrate to package.json.');

    const server = spawn(npm, ['start', '--', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(server);
    const { url, output } = await printedUrl(server, listening, (printed) => printed.includes('3. '));
    expect(output).toContain('1. list the warehouses');

    browser = await launchChromium();
    const page = await browser.newPage();
    await openConsole(page, url, 'anonymous');
    await askConsole(page, 'list the warehouses');
    await expect.poll(() => page.locator('.msg.assistant').last().textContent(), { timeout: 15_000 }).toContain('Porto Docks');
  }, 120_000);
});
