import type { ChatMessage, Provider, ToolCallPart, ToolDefinition } from '../providers/index.js';
import type { RoundBudget } from './budget.js';
import { StageStop } from './budget.js';

/** One model round of a planned stage: its text, its tool calls, its usage. */
export interface PlannedRound {
  readonly text: string;
  readonly toolCalls: readonly ToolCallPart[];
}

/**
 * Runs one bounded model request: charged to the turn's ledger before it starts, cut at the
 * stage's signal. A provider failure, a deadline and an empty ledger each stop with their reason.
 */
export async function plannedRound(input: {
  readonly provider: Provider;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly signal: AbortSignal;
  readonly budget: RoundBudget;
  readonly addUsage: (usage: { readonly inputTokens: number; readonly outputTokens: number }) => void;
}): Promise<PlannedRound> {
  if (!input.budget.take()) throw new StageStop('budget_exhausted', `the turn used its ${input.budget.limit} model rounds`);
  let text = '';
  const toolCalls: ToolCallPart[] = [];
  try {
    for await (const event of input.provider.complete({ messages: input.messages, tools: input.tools, signal: input.signal })) {
      if (event.type === 'text') text += event.text;
      else if (event.type === 'tool_call') toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments, ...(event.providerData === undefined ? {} : { providerData: event.providerData }) });
      else if (event.type === 'usage') input.addUsage({ inputTokens: event.inputTokens, outputTokens: event.outputTokens });
    }
  } catch (error) {
    if (input.signal.aborted) throw new StageStop('deadline_exceeded', 'the stage ran past its deadline');
    throw new StageStop('provider_failed', error instanceof Error ? error.message : String(error));
  }
  if (input.signal.aborted) throw new StageStop('deadline_exceeded', 'the stage ran past its deadline');
  return { text, toolCalls };
}
