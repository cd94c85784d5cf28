import type { JsonValue } from '../core/index.js';
import { PlumbError } from '../core/index.js';
import type { EvidenceRequirement } from './plan.js';

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

/** The manager a record is about: its call's `manager` argument (`to_manager` for a path); none for a calculation. */
export function managerOf(record: EvidenceRecord): string | undefined {
  if (!('tool' in record.source)) return undefined;
  const args = record.source.arguments;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const named = (args as Readonly<Record<string, JsonValue>>)[record.kind === 'path' ? 'to_manager' : 'manager'];
  return typeof named === 'string' ? named : undefined;
}

/** A record satisfies a requirement of its kind, about the requirement's manager when it names one. */
export function satisfies(record: EvidenceRecord, requirement: EvidenceRequirement): boolean {
  return record.kind === requirement.kind && (requirement.manager === undefined || managerOf(record) === requirement.manager);
}

/** The evidence of one planned turn, in memory for the turn's length; ids are unique. */
export class EvidenceStore {
  readonly #records = new Map<string, EvidenceRecord>();
  /** Requirement id → the evidence that satisfies it. */
  readonly #links = new Map<string, string>();
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

  /**
   * Links each of a task's requirements not linked yet to a record among `records` that satisfies
   * it and no other requirement of the task; returns the ids of those still unmet.
   */
  linkRequirements(requirements: readonly EvidenceRequirement[], records: readonly EvidenceRecord[]): string[] {
    const taken = new Set(requirements.map((requirement) => this.#links.get(requirement.id)).filter((id) => id !== undefined));
    const unmet: string[] = [];
    for (const requirement of requirements) {
      if (this.#links.has(requirement.id)) continue;
      const found = records.find((record) => !taken.has(record.id) && satisfies(record, requirement));
      if (found === undefined) unmet.push(requirement.id);
      else {
        this.#links.set(requirement.id, found.id);
        taken.add(found.id);
      }
    }
    return unmet;
  }

  /** The evidence a requirement is linked to, if any. */
  linked(requirementId: string): string | undefined {
    return this.#links.get(requirementId);
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
