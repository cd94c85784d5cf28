import type { Actor, JsonObject } from '../core/index.js';

function describeValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function actorName(actor: Actor): string {
  if (actor.kind === 'user') return actor.displayName ?? actor.id;
  return 'an anonymous visitor';
}

/**
 * The sentence a person confirms for a held call: the tool, every argument and its value (keys in
 * order), who asks, and when the hold lapses. Plain English: MCP clients show it as it is.
 */
export function confirmationSentence(tool: string, args: JsonObject, actor: Actor, expiresAt: string): string {
  const keys = Object.keys(args).sort();
  const list = keys.length === 0 ? 'no arguments' : keys.map((key) => `${key.replaceAll('_', ' ')} ${describeValue(args[key])}`).join(', ');
  return `Run ${tool} with ${list}, as ${actorName(actor)}? This confirmation is for these exact arguments, once, until ${expiresAt}.`;
}
