import { existsSync, readdirSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import type { Migration } from 'kysely';
import { PlumbError } from '../core/index.js';
import type { Migrations } from '../core/index.js';
import type { ModuleLoader } from './modules.js';

const extensions = new Set(['.ts', '.mts', '.js', '.mjs']);

/** The migrations folder a configuration names, from its folder. */
export function migrationsFolder(setting: string, root: string): string {
  return resolve(root, setting);
}

/** The migration files of a folder, by name (the file name without its extension), in order. */
export function migrationFileNames(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => extensions.has(extname(file)) && !file.endsWith('.d.ts'))
    .sort();
}

/**
 * Loads every migration file of a folder through the configuration's module loader (so `.ts`
 * files load as they are): each exports `up(db)`, and may export `down(db)`.
 */
export async function loadMigrationFiles(folder: string, load: ModuleLoader): Promise<Migrations> {
  const migrations: Record<string, Migration> = {};
  for (const file of migrationFileNames(folder)) {
    const name = file.slice(0, -extname(file).length);
    if (Object.hasOwn(migrations, name)) throw new PlumbError('invalid_config', `migrations: two files are named '${name}' in ${folder}; rename one.`, { details: { key: 'migrations', migration: name } });
    const module = await load(join(folder, file));
    const up = module.up;
    if (typeof up !== 'function') {
      throw new PlumbError('module_export_missing', `migrations: '${join(folder, file)}' must export an async function up(db); it exports ${Object.keys(module).join(', ') || 'nothing'}.`, { details: { key: 'migrations', module: file } });
    }
    const down = module.down;
    migrations[name] = { up: up as Migration['up'], ...(typeof down === 'function' ? { down: down as NonNullable<Migration['down']> } : {}) };
  }
  return migrations;
}
