/**
 * Plumb managers over the tables of an existing SQLite database, written by `plumb introspect`: 6
 * tables → 5 managers, 1 many-to-many relation.
 *
 * tables: 'attach' (at the end): the tables are yours. Plumb checks each mapped table and column
 * when it starts and never creates, alters or drops one.
 *
 * Before anything reaches a model:
 * - Descriptions are yours to write. The assistant reads each manager's `description` (and its
 *   fields') to know what the table means: add one to every manager you expose.
 * - Permissions default to: everyone may read every row; signed-in users may create, update and
 *   delete. Tighten them with `permissions: { read, create, update, delete }`.
 * - Every manager has chatExposed: false: nothing reaches a model until you set it to true.
 */
import { defineHost, defineManager } from 'plumb-agent';

export const Brewer = defineManager({
  name: 'Brewer',
  description: 'A brewer on the production team.',
  table: 'brewers',
  fields: {
    fullName: { type: 'string' },
    email: { type: 'string' },
    hiredOn: { type: 'date', description: 'Date the brewer started' },
    shift: { type: 'enum', values: ['morning', 'evening'], description: 'The shift the brewer works' },
  },
  chatExposed: true,
});

export const Ingredient = defineManager({
  name: 'Ingredient',
  description: 'A raw material used in recipes.',
  table: 'ingredients',
  fields: {
    name: { type: 'string' },
    kind: { type: 'enum', values: ['malt', 'hop', 'yeast', 'adjunct'], description: 'Malt, hop, yeast or adjunct' },
    supplier: { type: 'string', description: 'Who sells it to the brewery' },
    costPerKg: { type: 'float', description: 'Price per kilogram in euros' },
  },
  chatExposed: true,
});

export const Recipe = defineManager({
  name: 'Recipe',
  description: 'A beer the brewery makes.',
  table: 'recipes',
  fields: {
    name: { type: 'string' },
    style: { type: 'string', description: 'The beer style' },
    targetAbvPct: { type: 'float', description: 'Alcohol by volume the recipe aims for, in percent' },
    ibu: { type: 'integer', nullable: true, description: 'Bitterness in IBU' },
    seasonal: { type: 'boolean', default: false, description: 'Brewed only in some seasons' },
  },
  relations: {
    ingredients: { kind: 'manyToMany', target: 'Ingredient', through: 'recipe_ingredients', sourceColumn: 'recipe_id', targetColumn: 'ingredient_id', description: 'What goes into the beer' },
  },
  chatExposed: true,
});

export const Tank = defineManager({
  name: 'Tank',
  description: 'A fermentation or bright tank.',
  table: 'tanks',
  fields: {
    code: { type: 'string', description: 'The code painted on the tank' },
    capacityL: { type: 'integer', description: 'Capacity in litres' },
    location: { type: 'string', description: 'Room where the tank stands' },
    installedOn: { type: 'date', description: 'Date the tank was installed' },
  },
  chatExposed: true,
});

export const Batch = defineManager({
  name: 'Batch',
  conditions: { unfinished: { packagedOn__isnull: true, status__in: ['fermenting', 'conditioning'] } },
  description: 'One brew of a recipe in a tank.',
  table: 'batches',
  fields: {
    brewedOn: { type: 'date', description: 'Brew day' },
    volumeL: { type: 'integer', description: 'Litres brewed' },
    measuredAbvPct: { type: 'float', nullable: true, description: 'Alcohol by volume measured, in percent' },
    status: { type: 'enum', values: ['fermenting', 'conditioning', 'packaged', 'dumped'], default: 'fermenting', description: 'Where the batch is in production' },
    packagedOn: { type: 'date', nullable: true, description: 'Date the batch was kegged or bottled' },
  },
  relations: {
    recipe: { kind: 'one', target: 'Recipe', column: 'recipe_id', description: 'The beer brewed' },
    tank: { kind: 'one', target: 'Tank', column: 'tank_id', description: 'The tank it ferments in' },
    brewer: { kind: 'one', target: 'Brewer', column: 'brewer_id', description: 'Who brewed it' },
  },
  chatExposed: true,
});

export default defineHost({
  managers: [Brewer, Ingredient, Recipe, Tank, Batch],
  tables: 'attach',
  // The rows of Brewer whose email is the asking actor's id are \"mine\".
  actorRow: { manager: 'Brewer', field: 'email' },
});
