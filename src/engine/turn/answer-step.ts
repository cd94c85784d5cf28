import { buildRoundMessages } from './context-step.js';
import { newItems } from '../shared/index.js';
import { noteRetry } from './retry-notice.js';
import { runProviderRound } from './provider-round.js';
import type { TurnRun } from './turn-run.js';
import type { JsonValue } from '../../core/index.js';
import type { WrittenAnswer } from '../../answers/index.js';

/** The turn's answer: one chunk (with the source of each value, where the renderer gave them), then the assistant item and `completed` in one transaction. */
export async function answerWith(run: TurnRun, answer: string | WrittenAnswer): Promise<void> {
  const text = typeof answer === 'string' ? answer : answer.text;
  const provenance = typeof answer === 'string' || answer.provenance.length === 0 ? undefined : answer.provenance;
  if (text !== '') {
    const waiting = run.emit({ type: 'text_chunk', content: text, ...(provenance === undefined ? {} : { provenance }) });
    if (waiting !== undefined) await waiting;
  }
  // Every field of a value's source is JSON (numbers, strings, null), journaled as it is.
  await run.done(text === '' ? [] : [newItems.assistantText(text, run.counters.rounds, provenance as readonly JsonValue[] | undefined)]);
}

/** `answerWith: 'model'`: one provider round over the turn so far (its tool results included), tools disabled, streamed. */
export async function modelAnswer(run: TurnRun): Promise<void> {
  const messages = await buildRoundMessages(run);
  run.counters = { ...run.counters, rounds: run.counters.rounds + 1 };
  const started = performance.now();
  const completion = await runProviderRound({
    provider: run.parts.provider!,
    messages,
    tools: [],
    settings: run.parts.settings,
    signal: run.signal,
    clock: run.parts.clock,
    random: run.parts.random,
    onAttempt: () => run.enter('calling_model'),
    onText: (content) => run.emit({ type: 'text_chunk', content }),
    onRetry: async (info) => {
      await noteRetry(run, info);
    },
  }).finally(() => {
    run.latency.model += performance.now() - started;
  });
  run.addUsage(completion.usage);
  // Cut at the length limit: kept, and said to be cut (this round has no continuation).
  if (completion.finishReason === 'length') return run.done([newItems.markedText(completion.text, run.counters.rounds, { truncated: true })], { truncated: true });
  await run.done(completion.text === '' ? [] : [newItems.assistantText(completion.text, run.counters.rounds)]);
}
