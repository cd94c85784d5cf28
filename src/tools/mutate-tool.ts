import { getNamedType, isLeafType, isObjectType } from 'graphql';
import type { FieldNode, GraphQLField } from 'graphql';
import { z } from 'zod';
import { PlumbError } from '../core/index.js';
import type { ChatApp } from './chat-app.js';
import { defineTool } from './define-tool.js';
import type { Tool } from './define-tool.js';
import { argument, field, operation, variableDefinition } from './graphql-ast.js';
import { raiseGraphqlErrors } from './graphql-outcome.js';
import type { ToolSettings } from './settings.js';

/** Every generated mutation name of an app: from its schema, or `create|update|delete<Manager>`. */
export function mutationNames(app: ChatApp): string[] {
  const type = app.schema?.getMutationType();
  if (type !== undefined && type !== null) return Object.keys(type.getFields()).sort();
  return app.managers.flatMap((manager) => ['create', 'update', 'delete'].map((verb) => `${verb}${manager.name}`)).sort();
}

/**
 * Startup checks of the mutation settings against the app: every allowed name is a generated
 * mutation (`unknown_allowed_mutation`), every confirmed name is allowed (`confirm_mutation_not_allowed`).
 */
export function validateMutationSettings(app: ChatApp, settings: ToolSettings): void {
  const known = new Set(mutationNames(app));
  const unknown = settings.allowedMutations.filter((mutation) => !known.has(mutation));
  if (unknown.length > 0) {
    throw new PlumbError(
      'unknown_allowed_mutation',
      `allowedMutations names ${unknown.map((mutation) => `'${mutation}'`).join(', ')}, which the app does not generate. Generated mutations look like ${[...known].slice(0, 6).join(', ')}.`,
      { details: { unknown } },
    );
  }
  const allowed = new Set(settings.allowedMutations);
  const unconfirmable = settings.confirmMutations.filter((mutation) => !allowed.has(mutation));
  if (unconfirmable.length > 0) {
    throw new PlumbError(
      'confirm_mutation_not_allowed',
      `confirmMutations names ${unconfirmable.map((mutation) => `'${mutation}'`).join(', ')}, which allowedMutations does not list. Add them to allowedMutations or remove them.`,
      { details: { names: unconfirmable } },
    );
  }
}

function resultSelection(mutation: GraphQLField<unknown, unknown> | undefined): FieldNode[] {
  const type = mutation === undefined ? undefined : getNamedType(mutation.type);
  if (type === undefined || !isObjectType(type)) return [field('id')];
  const out: FieldNode[] = [];
  for (const member of Object.values(type.getFields())) {
    if (isLeafType(getNamedType(member.type)) && member.args.length === 0) out.push(field(member.name));
  }
  return out.length > 0 ? out : [field('id')];
}

/**
 * `mutate { mutation, input }`: only an exact name from `allowedMutations`, only for a signed-in
 * actor, through the confirmation gate when `confirmMutations` lists it. `update…` and `delete…`
 * take the row `id` inside `input`. Answers `{ status: "executed", data }`.
 */
export function createMutateTool(app: ChatApp, settings: ToolSettings): Tool {
  const known = new Set(mutationNames(app));
  const allowed = new Set(settings.allowedMutations.filter((mutation) => known.has(mutation)));
  const confirmed = new Set(settings.confirmMutations);
  const allowedList = [...allowed].sort();
  const mutationFields = app.schema?.getMutationType()?.getFields();
  return defineTool({
    name: 'mutate',
    description: `Run one allowed GraphQL mutation with its input (update and delete take the row id in input.id). Allowed: ${
      allowedList.length > 0 ? allowedList.join(', ') : 'none — this assistant is read-only'
    }. Some need the user to confirm first.`,
    input: z
      .object({
        mutation: z.string().min(1).describe('Exact mutation name, e.g. createTask.'),
        input: z.record(z.string(), z.unknown()).describe('The mutation input; for update/delete include "id".'),
      })
      .superRefine((args, issues) => {
        const id = args.input.id;
        if (/^(update|delete)[A-Z]/.test(args.mutation) && !((typeof id === 'string' && id !== '') || typeof id === 'number')) {
          issues.addIssue({ code: 'custom', path: ['input', 'id'], message: `${args.mutation} needs the row id in input.id` });
        }
      }),
    effect: 'write',
    confirm: (args) => confirmed.has(args.mutation),
    authorize: (args) =>
      allowed.has(args.mutation)
        ? undefined
        : {
            code: 'not_allowed',
            message: `Mutation '${args.mutation}' is not allowed here. Allowed mutations: ${allowedList.length > 0 ? allowedList.join(', ') : '(none)'}.`,
          },
    handler: async (args, ctx) => {
      const mutation = args.mutation;
      const definition = mutationFields?.[mutation];
      const typeOf = (name: string, fallback: string): string => definition?.args.find((arg) => arg.name === name)?.type.toString() ?? fallback;
      const { id, ...rest } = args.input;
      const verb = /^(create|update|delete)/.exec(mutation)?.[1] ?? 'create';
      const needsId = verb !== 'create';
      const variables: Record<string, unknown> = {};
      const definitions = [];
      const callArgs = [];
      if (needsId) {
        definitions.push(variableDefinition('id', typeOf('id', 'ID!')));
        callArgs.push(argument('id', 'id'));
        variables.id = typeof id === 'number' ? String(id) : id;
      }
      if (verb !== 'delete') {
        const managerName = mutation.slice(verb.length);
        definitions.push(variableDefinition('input', typeOf('input', `${managerName}${verb === 'create' ? 'Create' : 'Update'}Input!`)));
        callArgs.push(argument('input', 'input'));
        variables.input = verb === 'create' ? args.input : rest;
      }
      const document = operation('mutation', definitions, [field(mutation, resultSelection(definition), callArgs, 'result')]);
      const result = await app.graphql({ actor: ctx.actor, document, variables, signal: ctx.signal });
      raiseGraphqlErrors(result, `The mutation ${mutation}`);
      const data = (result.data as { result?: unknown } | null | undefined)?.result ?? null;
      return { status: 'executed', mutation, data };
    },
  });
}
