/** Whether a value found in a turn fits a parameter, and the value as the parameter takes it. */
import { Decimal } from 'decimal.js';
import type { JsonValue } from '../core/index.js';
import type { CompiledParameter } from './compile.js';
import { isDateParameter, isFreeText, looksLikeIdentifier, percentForm } from './parameter-kinds.js';
import type { Rulebook } from './rulebook.js';
import { destinationKinds } from './rulebook.js';
import { takesUnit } from './units.js';
import type { TurnValue } from './values.js';

/** Whether a value found in a turn fits a parameter's type, format, pattern and destination rule. */
export function fits(p: CompiledParameter, value: TurnValue, tool: string, rulebook: Rulebook): boolean {
  const kinds = destinationKinds(rulebook, tool, p.info.name);
  if (value.kind === 'url' || value.kind === 'email' || value.kind === 'channel') {
    if (kinds.length > 0) return kinds.includes(value.kind);
    if (value.kind === 'email') return p.info.format === 'email' && !hasOtherDestinationRule(rulebook, p.info.name);
    if (value.kind === 'url') return (p.info.format === 'uri' || p.info.format === 'url') && !hasOtherDestinationRule(rulebook, p.info.name);
    return false;
  }
  if (kinds.length > 0 || p.info.format === 'email' || p.info.format === 'uri' || isDateParameter(p)) return false;
  if (p.info.enumValues !== null) return p.info.enumValues.includes(value.value);
  // A percentage goes where the description says how: as the figure or as a fraction; else nowhere.
  if (value.percent === true && percentForm(p) === null) return false;
  // "10 km" into "Distance in miles", "2 pi" into a radius: the number alone is not what was said.
  if (value.measure !== undefined && !takesUnit(p.units, value.measure)) return false;
  switch (p.info.type) {
    case 'integer':
      return value.kind === 'integer' || value.kind === 'spelled';
    case 'number':
      return value.kind === 'integer' || value.kind === 'decimal' || value.kind === 'spelled';
    case 'string':
      if (value.kind === 'quoted') return isFreeText(p);
      if (p.pattern !== null) return p.pattern.test(value.value);
      return looksLikeIdentifier(p.info.name) && value.kind === 'integer';
    default:
      return false;
  }
}

function hasOtherDestinationRule(rulebook: Rulebook, parameter: string): boolean {
  return Object.keys(rulebook.destinations).some((key) => key === parameter || key.endsWith(`.${parameter}`));
}

export function convert(p: CompiledParameter, value: TurnValue): JsonValue {
  if (p.info.type === 'integer' || p.info.type === 'number') {
    if (value.percent === true && percentForm(p) === 'fraction') return new Decimal(value.value).div(100).toNumber();
    return Number(value.value);
  }
  return value.value;
}
