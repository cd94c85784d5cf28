import { canonicalJson } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import { toMessages } from '../context/index.js';
import type { ItemRecord } from '../../store/index.js';
import { itemText, newItems, retryReason } from '../shared/index.js';
import type { PlannedPort } from '../../planned/index.js';
import { execute, reportCall } from './tool-step.js';
import { errorCodeOf } from './turn-state.js';
import { modelLoop } from './turn-loop.js';
import type { TurnRun } from './turn-run.js';

/** Earlier messages the planner reads for context (its prompt stays small on a long thread). */
const PLANNER_HISTORY = 12;

/** Items that say a turn already began its work (a step, a confirmation, a model round retried): it continues in the model loop. */
const begun = new Set(['assistant_text', 'tool_call', 'tool_result', 'confirmation_request', 'confirmation_resolution']);
const begunRetries = new Set(['provider', 'recovery']);

function hasBegun(item: ItemRecord): boolean {
  return begun.has(item.kind) || (item.kind === 'retry_marker' && begunRetries.has(retryReason(item)));
}

/**
 * A turn the router left to the model: a fresh one goes to the planned read strategy when the
 * engine has one, and its outcome ends the turn; a planned read classified as a change, a resumed
 * turn, or an engine without a strategy runs the plain model loop.
 */
export async function deferToModel(run: TurnRun): Promise<void> {
  const planned = run.parts.planned;
  const turnItems = run.turnItems();
  if (planned === undefined || turnItems.some(hasBegun)) return modelLoop(run);
  await run.loadThread();
  const outcome = await planned.run(portOf(run, itemText(turnItems.find((item) => item.kind === 'user_text') ?? turnItems[0]!)));
  if (run.stopping) return run.cancelled();
  switch (outcome.kind) {
    case 'mutation':
      return modelLoop(run);
    case 'answer':
      return run.done([newItems.assistantText(outcome.text, run.counters.rounds)], { coverage: outcome.coverage });
    case 'clarification': {
      const text = [outcome.question, ...outcome.choices.map((choice) => `- ${choice}`)].join('\n');
      const shown = run.emit({ type: 'text_chunk', content: text });
      if (shown !== undefined) await shown;
      return run.done([newItems.assistantText(text, run.counters.rounds)], { coverage: outcome.coverage, clarification: { question: outcome.question, choices: outcome.choices } });
    }
    case 'failed':
      return run.fail(outcome.code, outcome.message);
  }
}

function portOf(run: TurnRun, text: string): PlannedPort {
  const { dispatcher, clock } = run.parts;
  const earlier = run.items.filter((item) => item.turnId !== run.turnId);
  const tools = run.parts.toolDefinitions.filter((definition) => dispatcher.tool(definition.name)?.effect === 'read');
  const readable = new Set(tools.map((tool) => tool.name));
  // Tasks run at once; their steps reach the journal one at a time, each its own step.
  let journal: Promise<void> = Promise.resolve();
  let step = run.counters.rounds;
  // An identical read of another task (same tool, same arguments) gets the earlier result, not a second run.
  const reads = new Map<string, Promise<JsonValue>>();
  return {
    actor: run.actor,
    text,
    history: toMessages(earlier).slice(-PLANNER_HISTORY),
    signal: run.signal,
    clock,
    tools,
    async dispatch(call) {
      if (!readable.has(call.name)) return { error: { code: 'tool_refused', message: `'${call.name}' is not a read tool; a planned read only reads.` } };
      const signature = canonicalJson([call.name, call.arguments]);
      const earlier = reads.get(signature);
      if (earlier !== undefined) return earlier;
      const running = execute(run, { id: call.id, name: call.name, arguments: JSON.stringify(call.arguments) }, 'read') as Promise<JsonValue>;
      reads.set(signature, running);
      const result = await running;
      if (errorCodeOf(result) !== undefined) reads.delete(signature);
      return result;
    },
    emit: (event) => run.emit(event),
    recordTool(call) {
      const recorded = journal.then(async () => {
        step++;
        const items = [
          newItems.toolCall({ callId: call.id, name: call.name, arguments: JSON.stringify(call.arguments), effect: 'read', step }),
          newItems.toolResult({ callId: call.id, name: call.name, result: call.result }),
        ];
        await run.stage(items, { status: 'running' });
        run.counters = { ...run.counters, toolCalls: run.counters.toolCalls + 1, readCalls: run.counters.readCalls + 1 };
        reportCall(run, { id: call.id, name: call.name, arguments: JSON.stringify(call.arguments) }, 'read', call.result);
      });
      journal = recorded.catch(() => undefined);
      return recorded;
    },
    addUsage: (usage) => run.addUsage(usage),
    audit: (record) => {
      run.planned = record;
    },
  };
}
