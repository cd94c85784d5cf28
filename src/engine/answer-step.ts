import { buildRoundMessages } from './context-step.js';
import { newItems } from './journal.js';
import { runProviderRound } from './provider-round.js';
import type { TurnRun } from './turn-run.js';

/** The turn's answer: one chunk, then the assistant item and `completed` in one transaction. */
export async function answerWith(run: TurnRun, text: string): Promise<void> {
  if (text !== '') {
    const waiting = run.emit({ type: 'text_chunk', content: text });
    if (waiting !== undefined) await waiting;
  }
  await run.done(text === '' ? [] : [newItems.assistantText(text, run.counters.rounds)]);
}

/** `answerWith: 'model'`: one provider round over the turn so far (its tool results included), tools disabled, streamed. */
export async function modelAnswer(run: TurnRun): Promise<void> {
  const messages = await buildRoundMessages(run);
  run.counters = { ...run.counters, rounds: run.counters.rounds + 1 };
  const completion = await runProviderRound({
    provider: run.parts.provider!,
    messages,
    tools: [],
    settings: run.parts.settings,
    signal: run.signal,
    clock: run.parts.clock,
    random: run.parts.random,
    onText: (content) => run.emit({ type: 'text_chunk', content }),
    onRetry: async ({ attempt, code, delayMs }) => {
      await run.append([newItems.retryMarker({ reason: 'provider', attempt, code, step: run.counters.rounds })]);
      const waiting = run.emit({ type: 'retry', attempt, code, delay_ms: delayMs });
      if (waiting !== undefined) await waiting;
    },
  });
  run.addUsage(completion.usage);
  await run.done(completion.text === '' ? [] : [newItems.assistantText(completion.text, run.counters.rounds)]);
}
