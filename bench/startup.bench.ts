/**
 * `npm run bench -- startup [--runs N] [--project DIR]`
 *
 * How long the installed package takes to start, as a user meets it: the packed tarball (from
 * `npm run build`) installed into an empty project, then from its `node_modules/.bin/plumb`:
 * `plumb --help`, `plumb --version`, `plumb ask` (one router turn on the demo, seeded by a first,
 * unmeasured run) and `plumb serve --demo` until `/healthz` answers. `node -e 0` is measured beside
 * them as the floor no command can go under. `--project DIR` reuses (or keeps) an installed project;
 * `--baseline DIR`, a project with another build installed (an earlier release), is measured in the
 * same run, each of its runs right after the same run of this build's, with the ratio between them.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { machineLine, option, printTable, summarize } from './harness.js';
import type { Benchmark } from './harness.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');

async function install(project: string): Promise<void> {
  if (existsSync(join(project, 'node_modules', '.bin', 'plumb'))) return;
  if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) throw new Error('bench startup measures the build: run npm run build first');
  const packs = mkdtempSync(join(tmpdir(), 'plumb-bench-pack-'));
  try {
    await run('npm', ['pack', '--pack-destination', packs], { cwd: root });
    const tarball = readdirSync(packs).find((file) => file.endsWith('.tgz'))!;
    mkdirSync(project, { recursive: true });
    await run('npm', ['init', '-y'], { cwd: project });
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(packs, tarball)], { cwd: project, timeout: 600_000 });
  } finally {
    rmSync(packs, { recursive: true, force: true });
  }
}

/** Milliseconds from spawning `command` to its exit. */
async function timed(command: string, args: readonly string[], cwd: string): Promise<number> {
  const start = performance.now();
  await run(command, args, { cwd });
  return performance.now() - start;
}

/** Milliseconds from spawning `plumb serve` to a 200 from `/healthz`. */
async function serveToHealthz(bin: string, cwd: string): Promise<number> {
  const start = performance.now();
  const child = spawn(bin, ['serve', '--demo', '--port', '0'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${output}`)));
    });
    for (;;) {
      const answer = await fetch(`${url}/healthz`).catch(() => undefined);
      if (answer?.status === 200) return performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

type Case = readonly [name: string, once: (bin: string, cwd: string) => Promise<number>];

const cases: readonly Case[] = [
  ['node -e 0 (the floor)', (_bin, cwd) => timed(process.execPath, ['-e', '0'], cwd)],
  ['plumb --version', (bin, cwd) => timed(bin, ['--version'], cwd)],
  ['plumb --help', (bin, cwd) => timed(bin, ['--help'], cwd)],
  ['plumb ask (one router turn, demo)', (bin, cwd) => timed(bin, ['ask', 'which parts are made of steel?', '--demo'], cwd)],
  ['plumb serve --demo → /healthz', (bin, cwd) => serveToHealthz(bin, cwd)],
];

const benchmark: Benchmark = {
  name: 'startup',
  async run(args) {
    const runs = Number(option(args, '--runs') ?? 10);
    const given = option(args, '--project');
    const baseline = option(args, '--baseline');
    const project = given ?? mkdtempSync(join(tmpdir(), 'plumb-bench-startup-'));
    try {
      await install(project);
      const projects = [project, ...(baseline === undefined ? [] : [baseline])];
      const bins = projects.map((dir) => join(dir, 'node_modules', '.bin', 'plumb'));
      // Seeds each demo database once, so that every measured ask is the same warm turn.
      for (const [index, dir] of projects.entries()) await run(bins[index]!, ['ask', 'which parts are made of steel?', '--demo'], { cwd: dir });
      const rows: (string | number)[][] = [];
      let floor = NaN;
      for (const [name, once] of cases) {
        const samples: number[][] = projects.map(() => []);
        for (const [index, dir] of projects.entries()) await once(bins[index]!, dir);
        for (let i = 0; i < runs; i++) for (const [index, dir] of projects.entries()) samples[index]!.push(await once(bins[index]!, dir));
        const [ours, theirs] = samples.map((list) => summarize(list));
        if (Number.isNaN(floor)) floor = ours!.median;
        rows.push([name, ours!.median, ours!.min, ours!.max, ours!.median / floor, ...(theirs === undefined ? [] : [theirs.median, theirs.median / ours!.median])]);
      }
      const header = ['command', 'median ms', 'min ms', 'max ms', '× node -e 0', ...(baseline === undefined ? [] : ['baseline median ms', 'baseline ÷ this'])];
      printTable(`startup from the installed package (${runs} runs each, after one warm-up) — ${machineLine()}`, header, rows);
    } finally {
      if (given === undefined) rmSync(project, { recursive: true, force: true });
    }
  },
};

export default benchmark;
