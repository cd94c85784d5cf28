/**
 * `npm run bench -- planned [--turns N] [--repeat N]`: the overhead of a planned turn against a
 * plain tool-loop turn at equal model rounds, both on the memory store with in-process scripted
 * models that answer at once, so that what is measured is Plumb's own work per round: validating
 * the plan, scheduling tasks, journaling each call, keeping evidence, checking the synthesis.
 *
 *   planned, T tasks: planner 1 + executor 2 per task (a call, then its summary) + synthesizer 1
 *   plain, same rounds: (rounds − 1) tool calls, one per round, then the answer
 *
 * Rounds alternate between the two in `--repeat` (5) rounds; the ratio is the median of the
 * rounds' ratios of per-model-round medians. Target: at most 2× per model round.
 */
import { z } from 'zod';
import { collect, createEngine } from '../src/engine/index.js';
import { createPlannedRunner, plannedSettingsSchema } from '../src/planned/index.js';
import type { ChatMessage, Provider, ProviderEvent } from '../src/providers/index.js';
import { createMemoryStore } from '../src/store/index.js';
import { defineTool } from '../src/tools/index.js';
import type { Benchmark } from './harness.js';
import { machineLine, measure, printTable, summarize } from './harness.js';

const rows = { data: [{ name: 'Bolt', sku: 'B-1', unitPrice: '0.25' }], total_count: 1, has_more: false };
const lookup = defineTool({ name: 'lookup', description: 'Looks a part up.', input: z.object({ q: z.string() }), effect: 'read', handler: () => rows });

function model(reply: (messages: readonly ChatMessage[]) => ProviderEvent): Provider {
  return {
    name: 'bench',
    model: 'bench',
    checkConfiguration: () => [],
    async *complete(request): AsyncIterable<ProviderEvent> {
      const event = reply(request.messages);
      yield event;
      yield { type: 'usage', inputTokens: 10, outputTokens: 5 };
      yield { type: 'done', finishReason: event.type === 'tool_call' ? 'tool_calls' : 'stop' };
      await Promise.resolve();
    },
  };
}

const lastIsTool = (messages: readonly ChatMessage[]): boolean => messages.at(-1)?.role === 'tool';
const toolResults = (messages: readonly ChatMessage[]): number => {
  let count = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role !== 'user'; i--) if (messages[i]!.role === 'tool') count++;
  return count;
};

function plannedEngine(tasks: number) {
  const plan = JSON.stringify({ intent: 'read', tasks: Array.from({ length: tasks }, (_, i) => ({ id: `t${i + 1}`, goal: `part ${i + 1}`, managers: ['Part'] })) });
  const answer = JSON.stringify({ answer: 'Bolt has SKU B-1.', evidence: Array.from({ length: tasks }, (_, i) => `e${i + 1}`) });
  const planner = model(() => ({ type: 'text', text: plan }));
  const executor = model((messages) => (lastIsTool(messages) ? { type: 'text', text: 'Found it.' } : { type: 'tool_call', id: 'c1', name: 'lookup', arguments: '{"q":"bolt"}' }));
  const synthesizer = model(() => ({ type: 'text', text: answer }));
  const planned = createPlannedRunner({
    models: { planner, simpleExecutor: executor, complexExecutor: executor, synthesizer, fallback: planner },
    settings: plannedSettingsSchema.parse({ enabled: true }),
    managers: [{ name: 'Part', description: 'A part.' }],
  });
  return createEngine({ store: createMemoryStore(), tools: [lookup], planned, settings: { recoverOnStart: false } });
}

function plainEngine(rounds: number) {
  const provider = model((messages) => (toolResults(messages) < rounds - 1 ? { type: 'tool_call', id: `c${toolResults(messages)}`, name: 'lookup', arguments: `{"q":"bolt ${toolResults(messages)}"}` } : { type: 'text', text: 'Bolt has SKU B-1.' }));
  return createEngine({ store: createMemoryStore(), provider, tools: [lookup], settings: { recoverOnStart: false } });
}

async function perTurn(engine: ReturnType<typeof createEngine>, turns: number, label: string): Promise<number> {
  let i = 0;
  const samples = await measure(turns, async () => {
    i++;
    const { answer, events } = await collect(engine.send({ actor: { kind: 'anonymous', sessionKey: `${label}${i}` }, requestKey: `r${i}`, text: 'What is the SKU of the bolt?' }));
    if (answer !== 'Bolt has SKU B-1.') throw new Error(`${label}: unexpected answer ${JSON.stringify(answer)} (${events.map((event) => event.type).join(' ')})`);
  }, Math.min(200, turns));
  return summarize(samples).median;
}

const bench: Benchmark = {
  name: 'planned',
  async run(args) {
    const option = (name: string, fallback: number): number => {
      const at = args.indexOf(`--${name}`);
      return at < 0 ? fallback : Number(args[at + 1]);
    };
    const turns = option('turns', 2000);
    const repeat = option('repeat', 5);
    console.log(`planned vs plain tool loop · ${machineLine()} · ${turns} turns per measurement, ${repeat} alternating rounds`);
    const rowsOut: (string | number)[][] = [];
    for (const tasks of [1, 3]) {
      const rounds = 1 + 2 * tasks + 1;
      const ratios: number[] = [];
      const plannedMs: number[] = [];
      const plainMs: number[] = [];
      for (let r = 0; r < repeat; r++) {
        const planned = plannedEngine(tasks);
        const plain = plainEngine(rounds);
        const a = await perTurn(planned, turns, 'planned');
        const b = await perTurn(plain, turns, 'plain');
        await planned.close();
        await plain.close();
        plannedMs.push(a);
        plainMs.push(b);
        ratios.push(a / b);
      }
      const median = (values: number[]): number => summarize(values).median;
      rowsOut.push([`${tasks} task${tasks === 1 ? '' : 's'}`, String(rounds), median(plannedMs) * 1000, (median(plannedMs) / rounds) * 1000, median(plainMs) * 1000, (median(plainMs) / rounds) * 1000, `${median(ratios).toFixed(2)}×`]);
    }
    printTable('A planned turn against a plain tool-loop turn at equal model rounds (memory store, scripted models)', ['plan', 'model rounds', 'planned µs/turn', 'planned µs/round', 'plain µs/turn', 'plain µs/round', 'ratio per round (target ≤ 2×)'], rowsOut);
  },
};

export default bench;
