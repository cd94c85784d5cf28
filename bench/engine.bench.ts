/**
 * `npm run bench -- engine [--turns N] [--warmup N] [--retained N] [--repeat N]`: one chat turn (a
 * zod-validated trivial tool called K = 1 or K = 3 times, one call per model round, then a final
 * text) through the Plumb engine on the memory store and on the SQLite store (WAL; durability
 * `normal`, and `full` with an fsync per commit), through `ai@6` `generateText` with
 * `MockLanguageModelV3` and a step limit, and through a `@langchain/langgraph` StateGraph with a
 * ToolNode and a scripted chat model — side by side in one run, each system in a fresh process of
 * its own, in `--repeat` (3) rounds of every system in turn; the ratio to `ai` is the median of the
 * rounds' ratios. Then what one turn writes to the SQLite journal (commits and WAL frames), one
 * turn on a long thread (200 turns before it: the history read and the summary round), and the
 * heap Plumb retains beyond its journal after 10,000 turns.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool as langchainTool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { openPostgresStore } from '../src/postgres/index.js';
import { createMemoryStore, openSqliteStore } from '../src/store/index.js';
import type { Store } from '../src/store/index.js';
import pg from 'pg';
import type { Benchmark } from './harness.js';
import { machineLine, measure, printTable, summarize } from './harness.js';
import { walWrites } from './sqlite-wal.js';
import { callsSoFar, input, plumbEngine, rows } from './plumb-kit.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

// ---- Plumb ----------------------------------------------------------------------------------

/** Turns that all continue one thread, begun with `before` turns already in it (its journal grows as it runs). */
async function plumbLongThread(store: Store, k: number, before: number): Promise<{ run: (i: number) => Promise<void>; close: () => Promise<void> }> {
  const engine = plumbEngine(store, k);
  let turn = 0;
  const one = (): Promise<void> => engine.send('long', `r${++turn}`);
  for (let i = 0; i < before; i++) await one();
  return { run: one, close: engine.close };
}

function plumbTurn(store: Store, k: number): { run: (i: number) => Promise<void>; close: () => Promise<void>; store: Store } {
  const engine = plumbEngine(store, k);
  let turn = 0;
  return {
    run: () => {
      turn++;
      return engine.send(`s${turn}`, `r${turn}`);
    },
    close: engine.close,
    store,
  };
}

// ---- ai@6 -----------------------------------------------------------------------------------

function aiTurn(k: number): { run: () => Promise<void>; close: () => Promise<void> } {
  const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
  const model = new MockLanguageModelV3({
    doGenerate: (options) => {
      const done = callsSoFar(options.prompt, (m) => m.role === 'tool', (m) => m.role === 'user');
      return Promise.resolve(
        done < k
          ? {
              content: [{ type: 'tool-call' as const, toolCallId: `c${done}`, toolName: 'lookup', input: `{"q":"x${done}"}` }],
              finishReason: { unified: 'tool-calls' as const, raw: undefined },
              usage,
              warnings: [],
            }
          : { content: [{ type: 'text' as const, text: 'Bolt has SKU B-1.' }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] },
      );
    },
  });
  const tools = { lookup: aiTool({ description: 'Looks a part up.', inputSchema: input, execute: () => Promise.resolve(rows) }) };
  return {
    run: async () => {
      const result = await generateText({ model, tools, prompt: 'What is the SKU of the bolt?', stopWhen: stepCountIs(k + 1) });
      if (result.text === '') throw new Error('ai: no answer');
      // MockLanguageModelV3 records every call; keep its logs from growing through the run.
      model.doGenerateCalls.length = 0;
    },
    close: () => Promise.resolve(),
  };
}

// ---- LangGraph ------------------------------------------------------------------------------

class ScriptedChatModel extends BaseChatModel {
  readonly #k: number;
  constructor(k: number) {
    super({});
    this.#k = k;
  }
  _llmType(): string {
    return 'scripted';
  }
  _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const done = callsSoFar(messages, (m) => m.getType() === 'tool', (m) => m.getType() === 'human');
    const message =
      done < this.#k
        ? new AIMessage({ content: '', tool_calls: [{ id: `c${done}`, name: 'lookup', args: { q: `x${done}` }, type: 'tool_call' }] })
        : new AIMessage({ content: 'Bolt has SKU B-1.' });
    return Promise.resolve({ generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] });
  }
}

function langgraphTurn(k: number): { run: () => Promise<void>; close: () => Promise<void> } {
  const lookup = langchainTool(() => JSON.stringify(rows), { name: 'lookup', description: 'Looks a part up.', schema: input });
  const model = new ScriptedChatModel(k);
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('tools', new ToolNode([lookup]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (state) => {
      const last = state.messages[state.messages.length - 1] as AIMessage;
      return (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
    })
    .addEdge('tools', 'agent')
    .compile();
  return {
    run: async () => {
      const result = await graph.invoke({ messages: [{ role: 'user', content: 'What is the SKU of the bolt?' }] }, { recursionLimit: 2 * k + 4 });
      const last = result.messages[result.messages.length - 1];
      if (last === undefined || last.content === '') throw new Error('langgraph: no answer');
    },
    close: () => Promise.resolve(),
  };
}

// ---- the run --------------------------------------------------------------------------------

interface Row {
  readonly system: string;
  readonly median: number;
  readonly p99: number;
  readonly cpu: number;
  readonly rss: number;
  readonly heap: number;
  /** Median µs of the turn's writes replayed alone on the same store (durable stores). */
  readonly commits?: number;
}

function option(args: readonly string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/**
 * What one turn costs the SQLite journal with the store as it ships (its own file, group commit):
 * commits and WAL frames (pages written), over 500 turns after 200. Read from the WAL file itself;
 * a second connection holds a read transaction so that no checkpoint restarts the WAL meanwhile.
 */
async function journalCost(dir: string, ks: readonly number[]): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const k of ks) {
    const path = join(dir, `journal-k${k}.db`);
    const subject = plumbTurn(await openSqliteStore({ path }), k);
    for (let i = 0; i < 200; i++) await subject.run(i);
    const turns = 500;
    const { commits, frames, frameBytes } = await walWrites(path, async () => {
      for (let i = 0; i < turns; i++) await subject.run(i);
    });
    await subject.close();
    rows.push([`K = ${k}`, commits / turns, frames / turns, (frames * frameBytes) / 1024 / turns]);
  }
  printTable('SQLite journal per turn (the store as it ships; WAL read with checkpoints held off)', ['turn', 'commits', 'WAL frames', 'KiB written to the WAL'], rows);
}

/** What one system measured gives: a turn to run, and its teardown; a durable store also gives the store, for its floor. */
interface Kit {
  run: (i: number) => Promise<void>;
  close: () => Promise<void>;
  readonly store?: Store;
}

/** As bench/data.bench.ts: the local server unless one is named. */
const postgresUrl: string = process.env.PLUMB_BENCH_POSTGRES_URL ?? process.env.PLUMB_TEST_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

/** The URL as it may be printed: without its password. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

/** Whether a PostgreSQL server answers at `url`; when none does, one line says so and how to point the bench at one. */
async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    console.log(`PostgreSQL rows skipped: no server answered at ${shownUrl(url)} (${reason}); set PLUMB_BENCH_POSTGRES_URL (or PLUMB_TEST_POSTGRES_URL) to a server's URL to measure them.`);
    return false;
  }
}

/** The PostgreSQL journal on a schema of this child's own, dropped when the kit closes. */
async function postgresKit(k: number, durability: 'normal' | 'full'): Promise<Kit> {
  const schema = `plumb_bench_engine_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`drop schema if exists "${schema}" cascade`);
  await admin.query(`create schema "${schema}"`);
  const store = await openPostgresStore({ url: postgresUrl, schema, durability });
  const subject = plumbTurn(store, k);
  return {
    run: subject.run,
    store,
    close: async () => {
      await subject.close();
      await store.close();
      await admin.query(`drop schema if exists "${schema}" cascade`);
      await admin.end();
    },
  };
}

/** What a PostgreSQL journal's step costs before any of Plumb's work: one round trip, and one commit of a row with and without waiting for the WAL flush. */
async function postgresRoundTrips(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create temporary table bench_commit (n bigint)');
    const rows: (string | number)[][] = [];
    rows.push(['select 1', summarize(await measure(2000, () => client.query('select 1'), 200)).median * 1000]);
    for (const mode of ['off', 'on']) {
      await client.query(`set synchronous_commit to ${mode}`);
      rows.push([`insert one row, its own commit (synchronous_commit ${mode})`, summarize(await measure(1000, (i) => client.query('insert into bench_commit values ($1)', [i]), 100)).median * 1000]);
    }
    printTable('PostgreSQL on this machine, from Node over loopback (pg, one connection)', ['statement', 'median µs'], rows);
  } finally {
    await client.end();
  }
}

/** The store writes one turn makes, as the memory store saw them: replayed alone on a durable store, they are its floor. */
interface WriteCall {
  readonly method: 'beginTurn' | 'appendItems' | 'stageItems' | 'updateTurn';
  readonly args: readonly unknown[];
}

async function turnWrites(k: number): Promise<WriteCall[]> {
  const calls: WriteCall[] = [];
  let recording = false;
  const store = createMemoryStore();
  const spy = new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (recording && (property === 'beginTurn' || property === 'appendItems' || property === 'stageItems' || property === 'updateTurn')) calls.push({ method: property, args: structuredClone(args) });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const subject = plumbTurn(spy, k);
  await subject.run(0);
  recording = true;
  await subject.run(1);
  await subject.close();
  return calls;
}

/** One turn's writes on `store`, awaited one after the other as the engine awaits them (a staged step: until committed). */
async function replayWrites(store: Store, calls: readonly WriteCall[], i: number): Promise<void> {
  let turnId = '';
  for (const call of calls) {
    if (call.method === 'beginTurn') {
      const input = call.args[0] as { input: string };
      const begun = await store.beginTurn({ owner: `session:floor${i}`, requestKey: `f${i}`, input: input.input });
      turnId = begun.turn.id;
    } else if (call.method === 'appendItems') await store.appendItems(turnId, call.args[1] as never, call.args[2] as never);
    else if (call.method === 'stageItems') await (await store.stageItems(turnId, call.args[1] as never, call.args[2] as never)).committed;
    else await store.updateTurn(turnId, call.args[1] as never, call.args[2] as never);
  }
}

/** The systems measured side by side, each in a process of its own (see `measureApart`). */
const systems: readonly { readonly name: string; readonly make: (k: number, dir: string) => Kit | Promise<Kit>; readonly postgres?: true }[] = [
  { name: 'ai@6 generateText (MockLanguageModelV3)', make: (k) => aiTurn(k) },
  { name: 'Plumb engine, memory store', make: (k) => plumbTurn(createMemoryStore(), k) },
  { name: 'Plumb engine, SQLite store (WAL, durability normal)', make: async (k, dir) => plumbTurn(await openSqliteStore({ path: join(dir, `k${k}.db`) }), k) },
  { name: 'Plumb engine, SQLite store (WAL, durability full)', make: async (k, dir) => plumbTurn(await openSqliteStore({ path: join(dir, `k${k}-full.db`), durability: 'full' }), k) },
  { name: '@langchain/langgraph StateGraph + ToolNode', make: (k) => langgraphTurn(k) },
  { name: 'Plumb engine, PostgreSQL store (durability normal: synchronous_commit off)', make: (k) => postgresKit(k, 'normal'), postgres: true },
  { name: 'Plumb engine, PostgreSQL store (durability full: synchronous_commit on)', make: (k) => postgresKit(k, 'full'), postgres: true },
];
/** Systems whose floor is measured (durable stores), by index into `systems`. */
const durable = new Set([2, 3, 5, 6]);

/** In a child process: one system's turns, measured, printed as one JSON line. */
async function measureHere(system: number, k: number, turns: number, warmup: number, dir: string): Promise<void> {
  const calls = durable.has(system) ? await turnWrites(k) : [];
  const subject = await systems[system]!.make(k, dir);
  const heapBefore = heapMb();
  const cpuBefore = process.cpuUsage();
  const samples = await measure(turns, subject.run, warmup);
  const cpu = process.cpuUsage(cpuBefore);
  const stats = summarize(samples);
  const heap = heapMb() - heapBefore;
  const store = subject.store;
  const commits = store === undefined || calls.length === 0 ? undefined : summarize(await measure(Math.min(turns, 1000), (i) => replayWrites(store, calls, i), Math.min(warmup, 100))).median * 1000;
  await subject.close();
  const row: Row = {
    system: systems[system]!.name,
    median: stats.median * 1000,
    p99: stats.p99 * 1000,
    cpu: (cpu.user + cpu.system) / (turns + warmup),
    rss: process.resourceUsage().maxRSS / 1024,
    heap,
    ...(commits === undefined ? {} : { commits }),
  };
  console.log(JSON.stringify(row));
}

/**
 * Each system runs in a fresh process: one system's heap, JIT feedback and garbage never slow
 * the next one down (run in one process, whichever ran later paid for the others).
 */
function measureApart(system: number, k: number, turns: number, warmup: number, dir: string): Row {
  const args = ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, 'run.ts'), 'engine', '--child', String(system), '--k', String(k), '--turns', String(turns), '--warmup', String(warmup), '--dir', dir];
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Row;
}

const benchmark: Benchmark = {
  name: 'engine',
  async run(args) {
    const turns = option(args, '--turns', 2000);
    const warmup = option(args, '--warmup', 200);
    const retainedTurns = option(args, '--retained', 10_000);
    const repeat = option(args, '--repeat', 3);
    const child = args.indexOf('--child');
    if (child >= 0) {
      const dirIndex = args.indexOf('--dir');
      return measureHere(Number(args[child + 1]), option(args, '--k', 1), turns, warmup, args[dirIndex + 1]!);
    }
    console.log(`engine benchmark · ${machineLine()} · ${warmup} warm-up + ${turns} measured turns per system, each system in a process of its own`);
    const postgres = await postgresReachable(postgresUrl);
    const inRun = new Set(systems.flatMap((system, index) => (postgres || system.postgres !== true ? [index] : [])));
    const dir = mkdtempSync(join(tmpdir(), 'plumb-engine-bench-'));
    try {
      for (const k of [1, 3]) {
        // Rounds of every system in turn, so that a slow spell of this shared machine falls on all of them.
        const rounds: (Row | undefined)[][] = [];
        for (let round = 0; round < repeat; round++) {
          const roundDir = join(dir, `round-${round}`);
          mkdirSync(roundDir, { recursive: true });
          rounds.push(systems.map((_, index) => (inRun.has(index) ? measureApart(index, k, turns, warmup, roundDir) : undefined)));
        }
        printTable(
          `One turn, K = ${k} tool call${k === 1 ? '' : 's'} then a final text (${repeat} round${repeat === 1 ? '' : 's'}; each row the round with the system's middle median)`,
          ['system', 'median µs', 'p99 µs', 'CPU µs / turn', 'peak RSS MB (its process)', 'heap retained after GC MB', 'median / ai', 'median / ai, every round', 'CPU / ai'],
          [...inRun].map((index) => {
            // Ratios within a round (same conditions); the row shows the middle round's.
            const ratios = rounds.map((round) => round[index]!.median / round[0]!.median);
            const middle = rounds.map((round, at) => ({ at, median: round[index]!.median })).sort((a, b) => a.median - b.median)[Math.floor(repeat / 2)]!.at;
            const row = rounds[middle]![index]!;
            return [row.system, row.median, row.p99, row.cpu, row.rss, row.heap, [...ratios].sort((a, b) => a - b)[Math.floor(repeat / 2)]!, ratios.map((ratio) => ratio.toFixed(2)).join(' · '), row.cpu / rounds[middle]![0]!.cpu];
          }),
        );
        // Each durable store against its floor, in the same rounds: the memory-store turn plus the turn's own writes replayed alone on that store.
        printTable(
          `Durable stores against their floor, K = ${k} (floor: the memory-store turn + the same turn's writes alone on the store; the round with the middle ratio)`,
          ['system', 'turn median µs', 'memory-store turn µs', "the turn's writes alone µs", 'floor µs', 'turn / floor', 'turn / floor, every round'],
          [...durable].filter((index) => inRun.has(index)).map((index) => {
            const ratios = rounds.map((round) => round[index]!.median / (round[1]!.median + (round[index]!.commits ?? NaN)));
            const middle = ratios.map((ratio, at) => ({ ratio, at })).sort((a, b) => a.ratio - b.ratio)[Math.floor(repeat / 2)]!.at;
            const row = rounds[middle]![index]!;
            const memory = rounds[middle]![1]!.median;
            return [row.system, row.median, memory, row.commits ?? NaN, memory + (row.commits ?? NaN), ratios[middle]!, ratios.map((ratio) => ratio.toFixed(2)).join(' · ')];
          }),
        );
      }
      await journalCost(dir, [1, 3]);
      if (postgres) await postgresRoundTrips(postgresUrl);
      // A long conversation: each turn continues one thread of `earlier` turns (a summary round each turn, as the engine does).
      const earlier = 200;
      const longTurns = Math.min(turns, 500);
      const longRows: (string | number)[][] = [];
      const longStores: [string, Store][] = [
        ['Plumb engine, memory store', createMemoryStore()],
        ['Plumb engine, SQLite store (WAL, durability normal)', await openSqliteStore({ path: join(dir, 'long.db') })],
      ];
      const longPostgres = postgres ? await postgresKit(1, 'normal') : undefined;
      // The same engine kit's store, one continuing thread: a returning user's turn (one round trip to begin it).
      if (longPostgres?.store !== undefined) longStores.push(['Plumb engine, PostgreSQL store (durability normal)', longPostgres.store]);
      for (const [system, store] of longStores) {
        const subject = await plumbLongThread(store, 1, earlier);
        const stats = summarize(await measure(longTurns, subject.run, Math.min(warmup, 50)));
        await subject.close();
        longRows.push([system, stats.median * 1000, stats.p99 * 1000]);
      }
      await longPostgres?.close();
      printTable(`One turn on a long thread (K = 1; ${earlier} turns before, ${longTurns} measured)`, ['system', 'median µs', 'p99 µs'], longRows);
      // Retained heap: run many turns on the memory store, then delete their threads; what stays is not the journal.
      const store = createMemoryStore();
      const subject = plumbTurn(store, 1);
      for (let i = 0; i < 200; i++) await subject.run(i);
      const before = heapMb();
      for (let i = 0; i < retainedTurns; i++) await subject.run(i);
      const withJournal = heapMb();
      for (let i = 0; i < retainedTurns + 200; i++) {
        for (const thread of await store.listThreads(`session:s${i + 1}`)) await store.deleteThread(thread.id);
      }
      const withoutJournal = heapMb();
      await subject.close();
      printTable(
        `Heap after ${retainedTurns.toLocaleString('en')} turns (Plumb, memory store, K = 1)`,
        ['heap before (MB)', 'with the journal (MB)', 'journal (MB)', 'retained beyond the journal (MB)'],
        [[before, withJournal, withJournal - withoutJournal, withoutJournal - before]],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
