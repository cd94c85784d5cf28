import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import type { ValueNode } from 'graphql';

/** Custom scalars of the generated schema. Values are checked again (with the field's rules) by the data layer. */

export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'An exact decimal number, written as a string ("12.50"); integers and floats are accepted as input.',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
    throw new GraphQLError(`Decimal expects a string such as "12.50" or a number, got ${JSON.stringify(value)}.`);
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return ast.value;
    throw new GraphQLError('Decimal expects a string such as "12.50" or a number.', { nodes: ast });
  },
});

function stringScalar(name: string, description: string, pattern: RegExp, example: string): GraphQLScalarType<string, string> {
  const check = (value: unknown): string => {
    if (typeof value === 'string' && pattern.test(value)) return value;
    throw new GraphQLError(`${name} expects a string such as "${example}", got ${JSON.stringify(value)}.`);
  };
  return new GraphQLScalarType<string, string>({
    name,
    description,
    serialize: (value) => String(value),
    parseValue: check,
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} expects a string such as "${example}".`, { nodes: ast });
      return check(ast.value);
    },
  });
}

export const DateScalar = stringScalar('Date', 'A calendar date, YYYY-MM-DD.', /^\d{4}-\d{2}-\d{2}$/, '2026-01-31');
export const DateTimeScalar = stringScalar(
  'DateTime',
  'A date and time with its offset (RFC 3339), returned in UTC: 2026-01-31T09:30:00.000Z.',
  /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})$/,
  '2026-01-31T09:30:00Z',
);

function literalValue(ast: ValueNode, variables: Readonly<Record<string, unknown>> | null | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return ast.value;
    case Kind.INT:
      return Number.parseInt(ast.value, 10);
    case Kind.FLOAT:
      return Number.parseFloat(ast.value);
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((item) => literalValue(item, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((field) => [field.name.value, literalValue(field.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      return ast satisfies never;
  }
}

export const JsonScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalValue(ast, variables),
});
