import type { JsonValue } from './protocol.js';

/** `charge_card`, `OrderLine`, `order_id` → `charge card`, `order line`, `order id`. */
function words(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
}

function valueWords(value: JsonValue): string {
  if (typeof value === 'string') return `“${value}”`;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function fieldList(input: JsonValue): string {
  const entries = input !== null && typeof input === 'object' && !Array.isArray(input) ? Object.entries(input) : [];
  const parts = entries.map(([key, value]) => `${words(key)} ${valueWords(value)}`);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * The sentence a person checks before a write, the same in every client (the console's card,
 * `plumb ask`'s prompt): the server's own (`message`, in the turn's language) when it wrote one,
 * else one made from the mutation and its input — what will happen, to which record, with which values.
 */
export function confirmationSentence(mutation: string, input: JsonValue, message?: string): string {
  if (typeof message === 'string' && message.trim() !== '') return message;
  const record = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as { readonly [key: string]: JsonValue }) : undefined;
  const fields = fieldList(record === undefined ? input : Object.fromEntries(Object.entries(record).filter(([key]) => key !== 'id')));
  const id = record?.id === undefined ? '' : ` ${typeof record.id === 'string' ? record.id : JSON.stringify(record.id)}`;
  const crud = /^(create|update|delete)([A-Z]\w*)$/.exec(mutation);
  if (crud !== null) {
    const [, verb, manager] = crud;
    const thing = words(manager!);
    if (verb === 'create') return `Create a new ${thing}${fields === '' ? '' : ` with ${fields}`}?`;
    if (verb === 'update') return `Change ${thing}${id}${fields === '' ? '' : `: set ${fields}`}?`;
    return `Delete ${thing}${id}?`;
  }
  const action = words(mutation);
  return `${action.charAt(0).toUpperCase()}${action.slice(1)}${fields === '' ? '' : ` with ${fields}`}?`;
}
