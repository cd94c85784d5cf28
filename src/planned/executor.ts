import { canonicalHash } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import type { ChatMessage, Provider, ToolDefinition } from '../providers/index.js';
import type { RoundBudget } from './budget.js';
import { StageStop } from './budget.js';
import type { EvidenceStore } from './evidence.js';
import { evidenceOf } from './evidence.js';
import type { PlannedTask } from './plan.js';
import { stripFence } from './plan.js';
import type { PlannedPort } from './port.js';
import { plannedRound } from './round.js';

/** How a task's execution ended. */
export type TaskEnd = 'resolved' | 'budget_exhausted';

/**
 * What became of one call an executor made, for the audit: it gave `new` evidence, repeated a
 * call the task made already (`duplicate`, not run again), was `refused` (not a tool of the task)
 * or answered an `error`.
 */
export type CallState = 'new' | 'duplicate' | 'refused' | 'error';

export interface CallNote {
  /** The canonical hash of the call's tool and arguments. */
  readonly call: string;
  readonly state: CallState;
}

/** What one task's attempts share: the calls it made (identity → the evidence each gave) and the notes of them. */
export interface TaskCalls {
  readonly made: Map<string, string | undefined>;
  readonly notes: CallNote[];
}

function parseArguments(text: string): JsonValue {
  try {
    return JSON.parse(text === '' ? '{}' : text) as JsonValue;
  } catch {
    return text;
  }
}

/** A reply that declares children: one JSON object with a `children` key. */
function isDeclaration(text: string): boolean {
  try {
    const raw: unknown = JSON.parse(stripFence(text));
    return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'children' in raw;
  } catch {
    return false;
  }
}

function executorPrompt(task: PlannedTask, before: string, childrenLeft: number): string {
  return [
    'You gather the evidence for one task of a plan, with read tools only. You cannot change anything.',
    `Task: ${task.goal}`,
    task.managers.length === 0 ? '' : `It reads: ${task.managers.join(', ')}.`,
    before === '' ? '' : `Evidence already gathered:\n${before}`,
    'Call the tools to read exactly the rows the task needs (filters rather than whole tables); never repeat a call. When you have them, reply with one short sentence saying what you found, with no value the tool results do not hold.',
    childrenLeft === 0
      ? ''
      : `If the task needs separate parts read first, you may instead reply with ONE JSON object declaring them (at most ${childrenLeft}): {"children":[{"id":"${task.id}a","goal":"…","managers":["…"]}]}; their evidence comes back to you.`,
  ]
    .filter((line) => line !== '')
    .join('\n\n');
}

/**
 * Runs one read task: a bounded tool loop of an executor model over the read tools, every call
 * through the dispatcher as the actor, every result kept as evidence with its source call. A call
 * the task made already is not run again. With `declare`, the model may declare children instead
 * of answering: `declare` checks and runs them, and its reply goes back to the model.
 */
export async function executeTask(input: {
  readonly task: PlannedTask;
  readonly provider: Provider;
  readonly port: PlannedPort;
  readonly tools: readonly ToolDefinition[];
  readonly evidence: EvidenceStore;
  readonly before: string;
  readonly maxEvidenceRows: number;
  readonly signal: AbortSignal;
  readonly budget: RoundBudget;
  readonly calls: TaskCalls;
  readonly childrenLeft: number;
  readonly declare?: ((text: string) => Promise<string>) | undefined;
}): Promise<TaskEnd> {
  const { task, port, evidence, calls } = input;
  const allowed = input.task.tools === undefined ? input.tools : input.tools.filter((tool) => input.task.tools!.includes(tool.name));
  const childrenLeft = input.declare === undefined ? 0 : input.childrenLeft;
  const messages: ChatMessage[] = [{ role: 'system', content: executorPrompt(task, input.before, childrenLeft) }, { role: 'user', content: task.goal }];
  for (let round = 0; round < task.maxRounds; round++) {
    const answer = await plannedRound({ provider: input.provider, messages, tools: allowed, signal: input.signal, budget: input.budget, addUsage: (usage) => port.addUsage(usage) });
    if (answer.toolCalls.length === 0) {
      if (input.declare === undefined || !isDeclaration(answer.text)) return 'resolved';
      const reply = await input.declare(answer.text);
      messages.push({ role: 'assistant', content: answer.text }, { role: 'user', content: reply });
      continue;
    }
    messages.push({ role: 'assistant', content: answer.text, toolCalls: answer.toolCalls });
    for (const call of answer.toolCalls) {
      const args = parseArguments(call.arguments);
      const id = `${task.id}-${call.id}`;
      const identity = canonicalHash([call.name, args]).slice(0, 32);
      const waiting = port.emit({ type: 'tool_call', id, name: call.name, args, task_id: task.id });
      if (waiting !== undefined) await waiting;
      const permitted = allowed.some((tool) => tool.name === call.name);
      const repeated = calls.made.has(identity);
      const earlier = calls.made.get(identity);
      // A tool the task may not use is refused here, and so is a call the task made already; the dispatcher refuses everything else it must.
      const result: JsonValue = !permitted
        ? { error: { code: 'not_allowed', message: `'${call.name}' is not a read tool of this task.` } }
        : repeated
          ? { error: { code: 'duplicate_call', message: `This task made this call already${earlier === undefined ? '' : ` (its result is evidence ${earlier})`}; use what it gave, or read something else.` } }
          : await port.dispatch({ id, name: call.name, arguments: args });
      if (input.signal.aborted) throw new StageStop('deadline_exceeded', 'the stage ran past its deadline');
      await port.recordTool({ taskId: task.id, id, name: call.name, arguments: args, result });
      const shown = port.emit({ type: 'tool_result', id, name: call.name, result, task_id: task.id });
      if (shown !== undefined) await shown;
      const isError = result !== null && typeof result === 'object' && !Array.isArray(result) && 'error' in result;
      if (!permitted || repeated) calls.notes.push({ call: identity, state: permitted ? 'duplicate' : 'refused' });
      else if (isError) {
        calls.made.set(identity, undefined);
        calls.notes.push({ call: identity, state: 'error' });
      } else {
        const read = evidenceOf(call.name, result, input.maxEvidenceRows);
        const added = evidence.add({ id: evidence.nextId(), taskId: task.id, kind: read.kind, source: { tool: call.name, arguments: args, callId: id }, rows: read.rows, truncated: read.truncated });
        calls.made.set(identity, added.id);
        calls.notes.push({ call: identity, state: 'new' });
      }
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, result });
    }
  }
  return 'budget_exhausted';
}
