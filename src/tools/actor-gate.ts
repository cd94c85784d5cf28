/**
 * The part of authorization that needs no arguments: who may call a tool at all. A write or an
 * irreversible step needs a signed-in user; a tool's own `permits` may ask more (a role). Run by the
 * dispatcher on every call, and by a caller before it asks a person anything about a call.
 */
import type { Actor } from '../core/index.js';
import type { Tool } from './define-tool.js';
import { errorResult } from './tool-result.js';
import type { ToolErrorResult } from './tool-result.js';

export function actorRefusal(tool: Tool, actor: Actor): ToolErrorResult | undefined {
  const denial = tool.permits?.(actor);
  if (denial !== undefined) return errorResult(denial.code, denial.message);
  if (tool.effect !== 'read' && actor.kind !== 'user') {
    return errorResult('authentication_required', `'${tool.name}' changes data; sign in to use it. Anonymous visitors can only read.`);
  }
  return undefined;
}
