import type { JsonValue } from '../core/index.js';
import type { ChatMessage, Provider, ToolDefinition } from '../providers/index.js';
import type { RoundBudget } from './budget.js';
import { StageStop } from './budget.js';
import type { EvidenceStore } from './evidence.js';
import { evidenceOf } from './evidence.js';
import type { PlannedTask } from './plan.js';
import type { PlannedPort } from './port.js';
import { plannedRound } from './round.js';

/** How a task's execution ended. */
export type TaskEnd = 'resolved' | 'budget_exhausted';

function parseArguments(text: string): JsonValue {
  try {
    return JSON.parse(text === '' ? '{}' : text) as JsonValue;
  } catch {
    return text;
  }
}

function executorPrompt(task: PlannedTask, before: string): string {
  return [
    'You gather the evidence for one task of a plan, with read tools only. You cannot change anything.',
    `Task: ${task.goal}`,
    task.managers.length === 0 ? '' : `It reads: ${task.managers.join(', ')}.`,
    before === '' ? '' : `Evidence already gathered by the tasks it depends on:\n${before}`,
    'Call the tools to read exactly the rows the task needs (filters rather than whole tables). When you have them, reply with one short sentence saying what you found, with no value the tool results do not hold.',
  ]
    .filter((line) => line !== '')
    .join('\n\n');
}

/**
 * Runs one read task: a bounded tool loop of the executor model over the read tools, every call
 * through the dispatcher as the actor, every result kept as evidence with its source call.
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
}): Promise<TaskEnd> {
  const { task, port, evidence } = input;
  const allowed = input.task.tools === undefined ? input.tools : input.tools.filter((tool) => input.task.tools!.includes(tool.name));
  const messages: ChatMessage[] = [{ role: 'system', content: executorPrompt(task, input.before) }, { role: 'user', content: task.goal }];
  for (let round = 0; round < task.maxRounds; round++) {
    const answer = await plannedRound({ provider: input.provider, messages, tools: allowed, signal: input.signal, budget: input.budget, addUsage: (usage) => port.addUsage(usage) });
    if (answer.toolCalls.length === 0) return 'resolved';
    messages.push({ role: 'assistant', content: answer.text, toolCalls: answer.toolCalls });
    for (const call of answer.toolCalls) {
      const args = parseArguments(call.arguments);
      const id = `${task.id}-${call.id}`;
      const waiting = port.emit({ type: 'tool_call', id, name: call.name, args, task_id: task.id });
      if (waiting !== undefined) await waiting;
      // A tool the task may not use is refused here; the dispatcher refuses everything else it must.
      const result: JsonValue = allowed.some((tool) => tool.name === call.name)
        ? await port.dispatch({ id, name: call.name, arguments: args })
        : { error: { code: 'not_allowed', message: `'${call.name}' is not a read tool of this task.` } };
      if (input.signal.aborted) throw new StageStop('deadline_exceeded', 'the stage ran past its deadline');
      await port.recordTool({ taskId: task.id, id, name: call.name, arguments: args, result });
      const shown = port.emit({ type: 'tool_result', id, name: call.name, result, task_id: task.id });
      if (shown !== undefined) await shown;
      const isError = result !== null && typeof result === 'object' && !Array.isArray(result) && 'error' in result;
      if (!isError) {
        const read = evidenceOf(call.name, result, input.maxEvidenceRows);
        evidence.add({ id: evidence.nextId(), taskId: task.id, kind: read.kind, source: { tool: call.name, arguments: args, callId: id }, rows: read.rows, truncated: read.truncated });
      }
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, result });
    }
  }
  return 'budget_exhausted';
}
