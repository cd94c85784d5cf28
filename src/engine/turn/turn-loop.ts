import { isPlumbError } from '../../core/index.js';
import { isProviderError } from '../../providers/index.js';
import { buildRound } from './context-step.js';
import type { RoundRequest } from './context-step.js';
import { decide } from './decide.js';
import type { Completion } from './decide.js';
import { newItems, textMarks } from '../shared/index.js';
import { runProviderRound } from './provider-round.js';
import { runToolStep } from './tool-step.js';
import { noteRetry } from './retry-notice.js';
import { TextDrafts } from '../recovery/index.js';
import { successfulCalls } from './turn-state.js';
import type { TurnRun } from './turn-run.js';

const recoveryPrompts = {
  no_tools:
    'You answered without calling any tool. If the question is about the application\'s data, look it up with the tools now and answer only from their results; if it needs no data, give your answer again.',
  empty_after_tools: 'You returned no answer after the tool results. Answer the user now from the tool results above.',
} as const;

const continuePrompt = 'Your answer was cut off at the length limit. Continue it exactly where it stopped, without repeating anything already written.';

/**
 * The turn loop, as a short state machine:
 *
 *   check bounds → context (maybe compact) → model round (an overflow: compact, once more) →
 *     cut at the length limit → commit the part, continue once; cut again: `done`, truncated
 *     decide →
 *     answer   → commit text, `completed`, `done`
 *     tools    → tool step → loop (or `waiting` on a confirmation)
 *     recover  → one corrective round → loop
 *     fail     → error item, `failed`, `error`
 *
 * Cancellation is checked before every round and tool step. Every exit leaves the turn terminal or
 * waiting, and its last event emitted.
 */
export async function runTurnLoop(run: TurnRun): Promise<void> {
  await guarded(run, () => modelLoop(run));
}

/** Runs a turn's body; anything it throws settles the turn (cancelled or failed); timers are released. */
export async function guarded(run: TurnRun, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    await settleFailure(run, error);
  } finally {
    run.dispose();
  }
}

/** The model loop proper (unguarded: the caller settles what it throws). */
export async function modelLoop(run: TurnRun): Promise<void> {
  const { settings, provider } = run.parts;
  for (;;) {
    if (run.stopping) return run.cancelled();
    if (provider === undefined) {
      return run.fail('no_provider', 'This turn needs a language model and none is configured. Configure a provider for the engine.');
    }
    if (run.counters.rounds >= settings.maxRounds) {
      return run.fail('turn_limit', `This message used its ${settings.maxRounds} model rounds (maxTotalRoundsPerMessage) without a final answer.`);
    }
    const request = await buildRound(run, run.parts.toolDefinitions);
    if (run.counters.rounds >= settings.maxRounds) {
      return run.fail('turn_limit', `This message used its ${settings.maxRounds} model rounds (maxTotalRoundsPerMessage) without a final answer.`);
    }
    const completion = await roundWithOverflowRecovery(run, request);
    if (completion === undefined) {
      return run.fail('turn_limit', `This message used its ${settings.maxRounds} model rounds (maxTotalRoundsPerMessage) without a final answer.`);
    }
    run.extraMessages = [];
    const step = run.counters.rounds;
    if (completion.finishReason === 'length' && completion.toolCalls.length === 0) {
      await flushBuffered(run);
      if (cutEarlier(run)) return run.done([newItems.markedText(completion.text, step, { truncated: true, continuation: continuesAnswer(run) })], { truncated: true });
      // The part already shown is journaled as cut; the continuation is asked for once, and is not recovered.
      run.counters = { ...run.counters, recoveryUsed: true };
      await run.append([newItems.markedText(completion.text, step, { truncated: true })], { status: 'running' });
      run.extraMessages = [{ role: 'user', content: continuePrompt }];
      continue;
    }
    const plan = decide({
      completion,
      counters: run.counters,
      settings,
      effectOf(name) {
        return run.parts.dispatcher.tool(name)?.effect;
      },
      hasTools: run.parts.toolDefinitions.length > 0,
      // Only calls are checked against the earlier ones: a final answer needs no look back.
      earlier: completion.toolCalls.length > 0 ? successfulCalls(run.turnItems()) : undefined,
    });
    switch (plan.kind) {
      case 'answer':
        await flushBuffered(run);
        if (continuesAnswer(run)) return run.done([newItems.markedText(completion.text, step, { continuation: true })]);
        return run.done(completion.text === '' ? [] : [newItems.assistantText(completion.text, step)]);
      case 'recover':
        run.counters = { ...run.counters, recoveryUsed: true };
        run.extraMessages = [
          { role: 'assistant', content: completion.text },
          { role: 'user', content: recoveryPrompts[plan.reason] },
        ];
        await run.append([newItems.retryMarker({ reason: 'recovery', cause: plan.reason, step })]);
        break;
      case 'fail':
        return run.fail(plan.code, plan.message);
      case 'tools': {
        await flushBuffered(run);
        const outcome = await runToolStep(run, completion, plan, step);
        if (outcome.next === 'waiting') return;
        if (outcome.next === 'stopped') {
          if (run.stopping) return run.cancelled();
          return;
        }
        break;
      }
    }
  }
}

/**
 * One model round; when the provider says the context is too long, the history is compacted and the
 * round sent once more. Undefined when the round cap leaves no room for that second request; a
 * second overflow (or nothing left to compact) fails the turn with the provider's code.
 */
async function roundWithOverflowRecovery(run: TurnRun, request: RoundRequest): Promise<Completion | undefined> {
  try {
    return await modelRound(run, request);
  } catch (error) {
    if (run.stopping || !isProviderError(error) || error.code !== 'provider_context_too_long') throw error;
    const compacted = await buildRound(run, run.parts.toolDefinitions, { force: true });
    if (!compacted.compacted) throw error;
    if (run.counters.rounds >= run.parts.settings.maxRounds) return undefined;
    await run.append([newItems.retryMarker({ reason: 'context_overflow', code: error.code, step: run.counters.rounds })]);
    return modelRound(run, compacted);
  }
}

/** The turn's last model text was cut at the length limit and asked to continue: this completion continues it. */
function continuesAnswer(run: TurnRun): boolean {
  const last = run.turnItems().findLast((item) => item.kind === 'assistant_text' || item.kind === 'tool_call' || item.kind === 'tool_result');
  return last !== undefined && last.kind === 'assistant_text' && textMarks(last).truncated;
}

/** The turn already had an answer cut at the length limit: its continuation is the one chance, used. */
function cutEarlier(run: TurnRun): boolean {
  return run.turnItems().some((item) => item.kind === 'assistant_text' && textMarks(item).truncated);
}

/** Text is shown live, except while a recovery may still discard it (no tool called yet). */
function mayRecover(run: TurnRun): boolean {
  const { settings } = run.parts;
  return settings.recoverMissingToolCalls && !run.counters.recoveryUsed && run.counters.toolCalls === 0 && run.parts.toolDefinitions.length > 0;
}

async function flushBuffered(run: TurnRun): Promise<void> {
  const chunks = run.textBuffer;
  if (chunks === undefined) return;
  run.textBuffer = undefined;
  for (const content of chunks) {
    const waiting = run.emit({ type: 'text_chunk', content });
    if (waiting !== undefined) await waiting;
  }
}

async function modelRound(run: TurnRun, request: RoundRequest): Promise<Completion> {
  run.counters = { ...run.counters, rounds: run.counters.rounds + 1 };
  const buffer = mayRecover(run);
  run.textBuffer = undefined;
  const started = performance.now();
  // Streamed text reaches the reader only once the journal holds it (text-drafts.ts).
  const drafts = new TextDrafts(run, run.counters.rounds);
  const completion = await runProviderRound({
    provider: run.parts.provider!,
    messages: request.messages,
    tools: request.tools,
    maxOutputTokens: request.maxOutputTokens,
    settings: run.parts.settings,
    signal: run.signal,
    clock: run.parts.clock,
    random: run.parts.random,
    // Methods, not arrow properties: under tsx (esbuild keepNames) each arrow property is renamed at runtime, every round.
    streamController(): AbortController {
      return run.streamController();
    },
    onAttempt(): Promise<void> | undefined {
      return run.enter('calling_model');
    },
    onText(content): Promise<void> | undefined {
      if (!buffer) return drafts.chunk(content);
      (run.textBuffer ??= []).push(content);
      return undefined;
    },
    async onRetry(info): Promise<void> {
      run.textBuffer = undefined;
      await drafts.settled();
      drafts.discard();
      await noteRetry(run, info);
    },
  }).finally(() => {
    run.latency.model += performance.now() - started;
  }).catch(async (error: unknown) => {
    drafts.discard();
    await drafts.settled().catch(() => undefined);
    throw error;
  });
  // The last chunks ride with the next commit when it holds the text (an answer, a write's step); else a draft now.
  await drafts.finish(completion.toolCalls.length === 0 || completion.toolCalls.some((call) => (run.parts.dispatcher.tool(call.name)?.effect ?? 'read') !== 'read'));
  run.addUsage(completion.usage);
  run.parts.tokens.observe(request.estimate, completion.usage.inputTokens);
  return completion;
}

/** Anything thrown out of the loop: a cancel, a provider failure, or an unexpected error. */
async function settleFailure(run: TurnRun, error: unknown): Promise<void> {
  try {
    if (run.stopping) return await run.cancelled();
    if (isProviderError(error)) {
      return await run.fail(error.code, error.message, error.retryAfterSeconds === undefined ? { error } : { error, retryAfterSeconds: error.retryAfterSeconds });
    }
    if (isPlumbError(error) && error.code.startsWith('provider_')) return await run.fail(error.code, error.message, { error });
    if (isPlumbError(error) && error.code === 'rate_limited') {
      // A host's budget (a token budget around the provider, a hook) refused the turn: passed through, with when to retry.
      const retry = (error.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
      return await run.fail('rate_limited', error.message, typeof retry === 'number' ? { error, retryAfterSeconds: retry } : { error });
    }
    return await run.fail('chat_error', 'Something went wrong on the server while answering. The failure was reported.', { error });
  } catch (secondary) {
    // The store itself failed: nothing more can be journaled; tell the reader and the error hook.
    run.parts.hooks.emit('error', { error: secondary, code: 'chat_error', threadId: run.thread.id, turnId: run.turnId, source: 'turn' });
    void run.channel.push({ type: 'error', code: 'chat_error', message: 'The turn could not be recorded.', thread_id: run.thread.id, turn_id: run.turnId, run_id: run.runId });
  }
}
