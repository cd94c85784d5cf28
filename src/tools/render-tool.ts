import { z } from 'zod';
import type { JsonObject, JsonValue } from '../core/index.js';
import type { Tool } from './define-tool.js';

/** A tool as a model sees it. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonObject;
}

type MutableJson = { [key: string]: unknown };

/**
 * The JSON Schema of a tool's input for a model: every object closed (`additionalProperties:
 * false` unless the schema says otherwise), root properties required-first then alphabetical,
 * no `$schema` line. Same tool, same bytes, every run.
 */
export function renderInputSchema(input: z.ZodType): JsonObject {
  const raw = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as MutableJson;
  delete raw.$schema;
  closeObjects(raw);
  return orderRoot(raw) as JsonObject;
}

export function renderTool(tool: Tool): ToolDefinition {
  return { name: tool.name, description: tool.description, parameters: renderInputSchema(tool.input) };
}

/** Renders a tool set in its given order. */
export function renderTools(tools: readonly Tool[]): ToolDefinition[] {
  return tools.map(renderTool);
}

function closeObjects(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) closeObjects(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as MutableJson;
  if (record.type === 'object' && record.properties !== undefined && record.additionalProperties === undefined) {
    record.additionalProperties = false;
  }
  for (const value of Object.values(record)) closeObjects(value);
}

function orderRoot(schema: MutableJson): MutableJson {
  const properties = schema.properties as Record<string, JsonValue> | undefined;
  if (properties === undefined) return schema;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.keys(properties).sort((a, b) => {
    const rank = Number(!required.has(a)) - Number(!required.has(b));
    return rank !== 0 ? rank : a < b ? -1 : a > b ? 1 : 0;
  });
  const ordered: Record<string, JsonValue> = {};
  for (const name of names) ordered[name] = properties[name] as JsonValue;
  const out: MutableJson = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') out.properties = ordered;
    else if (key === 'required') out.required = names.filter((name) => required.has(name));
    else out[key] = value;
  }
  return out;
}
