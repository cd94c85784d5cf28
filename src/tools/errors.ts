import type { ErrorCatalogue } from '../core/index.js';

/**
 * Every code the tools folder answers with. The first group comes back to callers as data
 * (`{ error: { code, message } }`); the second is thrown at startup for a host's misconfiguration.
 */
export const toolsErrorCodes = {
  // Results a model, the router or a client receives (never thrown past the dispatcher).
  unknown_tool: 'No tool of that name is registered with the dispatcher.',
  invalid_arguments: 'The arguments are not valid JSON or do not match the tool input schema.',
  not_exposed: 'The manager named is unknown or not exposed to chat (the two are indistinguishable).',
  forbidden: 'The actor may not use this tool or perform this operation.',
  permission_error: "A host's read permission failed while the tool ran: the caller gets this code with a generic message; the detail went to the error hook.",
  not_allowed: 'The mutation is not a generated mutation listed in allowedMutations.',
  authentication_required: 'Anonymous actors cannot run tools that write.',
  confirmation_required: 'The call needs a person to confirm it and the caller cannot ask for confirmation.',
  confirmation_invalid: 'The confirmation is unknown, belongs to another actor, was already used or does not match its arguments.',
  confirmation_expired: 'The confirmation lapsed before it was approved.',
  timeout: 'The tool did not finish within its time limit and was aborted.',
  query_timeout: 'A statement of the query ran past queryTimeoutSeconds and the database stopped it; narrow the filters, lower the limit or ask for fewer related fields.',
  aborted: 'The caller aborted the call before the tool finished.',
  tool_failed: 'The tool failed; the internal error went to the error hook.',
  result_not_found: 'read_result: no stored result has that id in this conversation (another conversation\'s looks the same).',
  // Startup errors: a host's tool definitions or settings are wrong.
  invalid_tool_definition: 'A tool definition is malformed (name, input schema, effect or timeout).',
  duplicate_tool: 'Two tools with the same name were given to one dispatcher.',
  invalid_tool_settings: 'The tool settings do not match their schema.',
  unknown_allowed_mutation: 'A name in allowedMutations is not a generated mutation of the app.',
  confirm_mutation_not_allowed: 'A name in confirmMutations is not listed in allowedMutations.',
} as const satisfies ErrorCatalogue;

export type ToolsErrorCode = keyof typeof toolsErrorCodes;

/** The codes a dispatched call can answer with (the data-shaped ones). */
export type ToolErrorCode =
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'not_exposed'
  | 'forbidden'
  | 'permission_error'
  | 'not_allowed'
  | 'authentication_required'
  | 'confirmation_required'
  | 'confirmation_invalid'
  | 'confirmation_expired'
  | 'timeout'
  | 'query_timeout'
  | 'aborted'
  | 'tool_failed'
  | 'result_not_found';
