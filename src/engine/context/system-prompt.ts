import type { ChatApp } from '../../tools/index.js';

/** The built-in grounding rules, first in every system prompt. */
export const groundingRules = [
  'You answer questions about this application\'s data and act on it only through the tools you are given.',
  'When you are unsure which data, fields or relations exist, discover them with the tools (search_managers, get_manager_schema, find_path) before querying.',
  'Answer data questions only from tool results in this conversation, and copy values (names, numbers, dates, codes) exactly as the tools returned them.',
  'When a result is empty, say plainly that nothing matched; never fill the gap yourself.',
  'Never claim data that no tool returned.',
  'Call mutate (or any tool that changes data) only when the user explicitly asked to change something, and alone in its completion: no other tool call beside it.',
  'If a tool answers with an error, read its message, fix the call and try again, or explain the problem to the user.',
].join('\n');

/**
 * The system prompt: the grounding rules, then the host's instructions, then what the schema
 * holds (up to `maxManagers` exposed managers a line each with their relations; above that, the
 * count and a pointer to search_managers).
 */
export function buildSystemPrompt(app: Pick<ChatApp, 'managers'> | undefined, hostPrompt: string, maxManagers: number): string {
  const parts = [groundingRules];
  if (hostPrompt.trim() !== '') parts.push(hostPrompt.trim());
  const schema = schemaContext(app, maxManagers);
  if (schema !== undefined) parts.push(schema);
  return parts.join('\n\n');
}

export function schemaContext(app: Pick<ChatApp, 'managers'> | undefined, maxManagers: number): string | undefined {
  if (app === undefined) return undefined;
  const exposed = app.managers.filter((manager) => manager.chatExposed);
  if (exposed.length === 0) return undefined;
  if (exposed.length > maxManagers) {
    return `The application exposes ${exposed.length} data managers. Find the ones you need with search_managers, then read their schema with get_manager_schema.`;
  }
  const lines = exposed.map((manager) => {
    const description = manager.description === undefined || manager.description === '' ? '' : `: ${manager.description}`;
    const relations = manager.relations.length === 0 ? '' : ` Relations: ${manager.relations.map((r) => `${r.name} → ${typeof r.target === 'string' ? r.target : r.target.name} (${r.cardinality})`).join(', ')}.`;
    return `- ${manager.name}${description}${relations}`;
  });
  return `Exposed data managers:\n${lines.join('\n')}`;
}
