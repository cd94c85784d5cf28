import type { JsonValue } from '../core/index.js';
import { PlumbError } from '../core/index.js';

/** What a piece of evidence is: the schema or a path the assistant looked at, rows it read, or a value it computed. */
export type EvidenceKind = 'schema' | 'path' | 'query' | 'calculation';

export interface EvidenceRecord {
  /** `e1`, `e2`… for tool results; the task's id for a calculation. */
  readonly id: string;
  readonly taskId: string;
  readonly kind: EvidenceKind;
  /** The call it came from (tool name, arguments, call id), or the calculation. */
  readonly source: { readonly tool: string; readonly arguments: JsonValue; readonly callId: string } | { readonly operation: string; readonly operands: JsonValue };
  /** Rows read (at most the evidence bound), or the computed value as a one-element list. */
  readonly rows: readonly JsonValue[];
  /** The computed value of a calculation, as an exact decimal string. */
  readonly value?: string;
  /** More rows were read than kept. */
  readonly truncated: boolean;
}

/** The evidence of one planned turn, in memory for the turn's length; ids are unique. */
export class EvidenceStore {
  readonly #records = new Map<string, EvidenceRecord>();
  #next = 1;

  /** The id the next tool result gets. */
  nextId(): string {
    while (this.#records.has(`e${this.#next}`)) this.#next++;
    return `e${this.#next++}`;
  }

  add(record: EvidenceRecord): EvidenceRecord {
    if (this.#records.has(record.id)) throw new PlumbError('invalid_plan', `Evidence '${record.id}' already exists.`);
    const frozen = Object.freeze({ ...record, rows: Object.freeze([...record.rows]) });
    this.#records.set(record.id, frozen);
    return frozen;
  }

  get(id: string): EvidenceRecord | undefined {
    return this.#records.get(id);
  }

  forTask(taskId: string): EvidenceRecord[] {
    return [...this.#records.values()].filter((record) => record.taskId === taskId);
  }

  all(): EvidenceRecord[] {
    return [...this.#records.values()];
  }
}

/** How a tool's result reads as evidence: its kind by the tool, its rows from the result's shape. */
export function evidenceOf(tool: string, result: JsonValue, maxRows: number): { kind: EvidenceKind; rows: JsonValue[]; truncated: boolean } {
  const kind: EvidenceKind = tool === 'search_managers' || tool === 'get_manager_schema' ? 'schema' : tool === 'find_path' ? 'path' : 'query';
  const object = result !== null && typeof result === 'object' && !Array.isArray(result) ? (result as Readonly<Record<string, JsonValue>>) : undefined;
  const listed = object?.data;
  const data: readonly JsonValue[] = Array.isArray(listed) ? listed : Array.isArray(result) ? result : [result];
  const more = object?.has_more === true;
  return { kind, rows: data.slice(0, maxRows), truncated: more || data.length > maxRows };
}
