import type { JsonValue } from '../../core/index.js';
import type { TurnRun } from './turn-run.js';

/**
 * A run's diagnostic record, allow-listed: which provider and model it had, how it ended, what it used of each budget, where its
 * time went, its usage and cost, and a planned turn's own record. Never a message, an argument,
 * a result or a name of the app's data.
 */
export function turnDiagnostics(run: TurnRun): Readonly<Record<string, JsonValue>> {
  const { settings, provider } = run.parts;
  const { counters, usage } = run;
  const price = settings.costPerMillionTokens;
  const ms = (value: number): number => Math.round(value * 10) / 10;
  return {
    event: 'turn_diagnostics',
    status: run.ended?.status ?? 'waiting',
    provider: provider === undefined ? null : { name: provider.name, model: provider.model },
    terminal: run.ended?.code ?? null,
    budgets: {
      rounds: { used: counters.rounds, limit: settings.maxRounds },
      reads: { used: counters.readCalls, limit: settings.maxRetriesPerMessage },
      failures: { used: counters.failedCalls, limit: settings.maxFailedCallsPerMessage },
      mutations: { used: counters.mutations, limit: settings.maxMutationsPerMessage },
    },
    latency_ms: { turn: ms(performance.now() - run.startedAt), router: ms(run.latency.router), model: ms(run.latency.model), tools: ms(run.latency.tools) },
    usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
    cost: price === null ? null : Math.round(((usage.inputTokens * price.input + usage.outputTokens * price.output) / 1e6) * 1e6) / 1e6,
    planned: run.planned ?? null,
  };
}
