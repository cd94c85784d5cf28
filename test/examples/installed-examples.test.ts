import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { npm, npmInstall, packCleanClone, printedUrl, run } from '../support/packed-package.js';
import { tempDir } from '../support/temp.js';
import { askAsBrowser, sseEvents, steelAnswer, streamedText } from './ask.js';
import type { ChatAnswer } from './ask.js';

const root = join(import.meta.dirname, '..', '..');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

interface Manifest {
  dependencies: Record<string, string>;
}

/** The examples that `npm start` serves themselves, and where each serves Plumb's chat. */
const servers = [
  { name: 'express', chatUrl: '/chat/' },
  { name: 'fastify-mount', chatUrl: '/assistant/chat/' },
  { name: 'hono', chatUrl: '/chat/' },
];

/**
 * Each example as a user gets it: its folder copied out of the repository, `npm install` with the
 * packed package (of a clean clone) for `plumb-agent` and its declared dependencies from npm's cache
 * (all in the root's), type-checked against the package's own declarations, started as its README
 * says, and asked one question over HTTP with the CSRF pair a browser sends.
 */
describe('the examples, each installed as a project of its own from the packed package', () => {
  const dir = tempDir('plumb-examples-');
  let tarball: string;

  beforeAll(async () => {
    ({ tarball } = await packCleanClone(dir.path));
  }, 900_000);
  // Four node_modules and a clone: removing them takes a while on a loaded machine.
  afterAll(() => dir.remove(), 600_000);

  function copied(name: string): string {
    const project = join(dir.path, name);
    cpSync(join(root, 'examples', name), project, { recursive: true, filter: (path) => !path.includes('node_modules') });
    return project;
  }

  async function typeErrors(project: string): Promise<string> {
    return run(npm, ['run', '--silent', 'typecheck'], { cwd: project }).then(
      () => '',
      (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
    );
  }

  function started(command: string, args: readonly string[], project: string, pattern: RegExp): Promise<{ readonly url: string }> {
    const child = spawn(command, args, { cwd: project, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // The child leads a process group (npm, its shell, tsx, node): end the group with the test.
    onTestFinished(() => {
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    });
    return printedUrl(child, pattern);
  }

  for (const { name, chatUrl } of servers) {
    it(`${name}: installs, type-checks, and npm start answers from the rows`, async () => {
      const project = copied(name);
      await npmInstall(project, [tarball]);
      expect(await typeErrors(project)).toBe('');
      const { url } = await started(npm, ['start'], project, /Shop on (http:\/\/[^\s,;]+)/);
      const response = await askAsBrowser((path, init) => fetch(`${url}${path}`, init), chatUrl, '');
      expect(response.status).toBe(200);
      expect(((await response.json()) as ChatAnswer).answer).toContain(steelAnswer);
    }, 1_200_000);
  }

  it('next-route: installs without Next.js, type-checks, and its route module streams an answer', async () => {
    // Next.js is large and not in the root's dependencies, so not in npm's cache: the copy drops it
    // (and the React it needs) and installs tsx instead, and next-route-server.ts calls the route
    // module's GET and POST with a Request for each HTTP request, as `next start` does.
    const project = copied('next-route');
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as Manifest;
    for (const dependency of ['next', 'react', 'react-dom']) {
      expect(manifest.dependencies[dependency], `next-route declares ${dependency}`).toBeDefined();
      delete manifest.dependencies[dependency];
    }
    writeFileSync(join(project, 'package.json'), JSON.stringify(manifest, null, 2));
    await npmInstall(project, [tarball, `tsx@${rootManifest.devDependencies.tsx}`]);
    expect(await typeErrors(project)).toBe('');
    const { url } = await started(join(project, 'node_modules', '.bin', 'tsx'), [join(import.meta.dirname, 'next-route-server.ts')], project, /listening on (http:\/\/\S+)/);
    const response = await askAsBrowser((path, init) => fetch(`${url}${path}`, init), '/api/chat/', 'stream/');
    expect(response.status).toBe(200);
    expect(streamedText(await sseEvents(response))).toContain(steelAnswer);
  }, 1_200_000);
});
