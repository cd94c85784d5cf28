/**
 * Attribute names from the OpenTelemetry GenAI semantic conventions (gen-ai spans, agent spans,
 * tool execution), and Plumb's own under `plumb.*`. Written out rather than imported: the
 * conventions package marks these as incubating and renames them between releases.
 */
export const genAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
} as const;

export const plumbAttributes = {
  turnId: 'plumb.turn.id',
  turnOperation: 'plumb.turn.operation',
  routerOutcome: 'plumb.router.outcome',
  toolEffect: 'plumb.tool.effect',
  toolPhase: 'plumb.tool.phase',
  toolOutcome: 'plumb.tool.outcome',
  toolCalls: 'plumb.model.tool_calls',
} as const;

/** The span names the conventions give: `{operation} {target}`. */
export const spanNames = {
  turn: 'invoke_agent plumb',
  model: (model: string): string => `chat ${model}`,
  tool: (tool: string): string => `execute_tool ${tool}`,
} as const;
