import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const root = join(import.meta.dirname, '..', '..');

/** A clean clone of the checkout: the files git keeps (committed or not yet), with no dist/; the checkout's node_modules for the build. */
async function cleanClone(into: string): Promise<void> {
  const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  for (const file of listed.stdout.split('\0').filter((path) => path !== '' && existsSync(join(root, path)))) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(root, file), join(into, file));
  }
  symlinkSync(join(root, 'node_modules'), join(into, 'node_modules'), 'dir');
}

export interface Packed {
  /** The tarball's absolute path. */
  readonly tarball: string;
  /** What `npm pack` put in it. */
  readonly files: readonly { readonly path: string }[];
  /** Whether the clone had a dist/ before packing (it must not: prepack builds it). */
  readonly cloneHadDist: boolean;
}

/** Plumb as a new user gets it: a clean clone (no dist/) under `dir`, packed there with `npm pack`, whose prepack builds it. */
export async function packCleanClone(dir: string): Promise<Packed> {
  const clone = join(dir, 'clone');
  await cleanClone(clone);
  const cloneHadDist = existsSync(join(clone, 'dist'));
  const pack = await run(npm, ['pack', '--json', '--pack-destination', dir], { cwd: clone, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
  const { files } = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!;
  return { tarball: join(dir, readdirSync(dir).find((file) => file.endsWith('.tgz'))!), files, cloneHadDist };
}

/** `npm install` of `specs` (and the project's declared dependencies) from npm's cache where it has them; the output, stdout then stderr. */
export async function npmInstall(project: string, specs: readonly string[]): Promise<string> {
  const install = await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], { cwd: project, timeout: 900_000, maxBuffer: 64 * 1024 * 1024 });
  return `${install.stdout}\n${install.stderr}`;
}

/** Resolves with the URL a long-running child prints (the first group of `pattern`) once `ready` holds for its output. */
export function printedUrl(child: ChildProcess, pattern: RegExp, ready: (output: string) => boolean = () => true): Promise<{ readonly url: string; readonly output: string }> {
  let output = '';
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match?.[1] !== undefined && ready(output)) resolve({ url: match[1], output });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`exited (${code}): ${output}`)));
  });
}
