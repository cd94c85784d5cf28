import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { parseDatabaseUrl } from '../../config/index.js';
import { appFiles, packageJson, scripts } from '../init/template.js';
import { displayPath } from '../display-path.js';
import { CliFailure, CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';
import { plumbPackage, plumbVersion } from '../version.js';

interface InitOptions {
  readonly database?: string;
  readonly force?: boolean;
}

/**
 * `plumb init [dir]`: writes a small working host app (configuration, managers with row
 * permissions, a host tool, a seed, an authenticate, a package.json whose `npm start` serves it).
 * Into a folder with a package.json it adds only the scripts that are missing; it never
 * overwrites a file unless told (`--force`).
 */
export function registerInitCommand(program: Command, io: CliIo): void {
  program
    .command('init')
    .description('Write a small working host app (config, managers, a tool, a seed) into a folder; `npm install && npm start` then serves it')
    .argument('[dir]', 'the folder (created when missing)', '.')
    .option('--database <url>', 'use this database instead of the SQLite default, e.g. postgres://user:password@127.0.0.1:5432/app (written to .env as DATABASE_URL)')
    .option('--force', 'overwrite files that exist')
    .action((dir: string, options: InitOptions) => {
      const target = resolve(dir);
      if (options.database !== undefined) parseDatabaseUrl(options.database, target);
      const files: Record<string, string> = { ...appFiles };
      if (options.database !== undefined) files['.env'] = `DATABASE_URL=${options.database}\n`;
      // A project's own .gitignore is kept and given the lines it lacks, like its package.json.
      const ignore = join(target, '.gitignore');
      const ignoreLines = existsSync(ignore) && options.force !== true ? missingIgnoreLines(ignore, files['.gitignore']!) : undefined;
      if (ignoreLines !== undefined) delete files['.gitignore'];
      const existing = Object.keys(files).filter((file) => existsSync(join(target, file)));
      if (existing.length > 0 && options.force !== true) {
        throw new CliFailure(`${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''} in ${target}; nothing was written. Pass --force to overwrite, or init another folder.`);
      }
      const manifest = join(target, 'package.json');
      let added: readonly string[] = [];
      const hadManifest = existsSync(manifest);
      if (hadManifest) added = addScripts(manifest);
      for (const [file, content] of Object.entries(files)) {
        const path = join(target, file);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, content);
      }
      if (!hadManifest) writeFileSync(manifest, packageJson({ name: packageName(target), plumbPackage, plumbVersion: `^${plumbVersion}` }));
      if (ignoreLines !== undefined && ignoreLines.length > 0) appendFileSync(ignore, `${readFileSync(ignore, 'utf8').endsWith('\n') ? '' : '\n'}${ignoreLines.join('\n')}\n`);
      const where = displayPath(target);
      io.stdout(`Wrote a Plumb app in ${where}: ${Object.keys(files).join(', ')}${hadManifest ? '' : ', package.json'}\n`);
      if (ignoreLines !== undefined) io.stdout(ignoreLines.length > 0 ? `Added ${ignoreLines.join(', ')} to .gitignore.\n` : '.gitignore already keeps out node_modules/, .plumb/ and .env; left as it is.\n');
      if (hadManifest) io.stdout(added.length > 0 ? `Added the scripts ${added.join(', ')} to package.json.\n` : 'package.json already has start, check and migrate scripts; left as it is.\n');
      const cd = where === '.' ? '' : `cd ${where} && `;
      io.stdout(`\nNext: ${cd}${hadManifest ? '' : 'npm install && '}npm start\nthen open http://127.0.0.1:8787/console/ and ask "list the warehouses" (no model needed).\n`);
    });
}

/** The lines of the template's .gitignore that the project's lacks (the journal in .plumb/ above all). */
function missingIgnoreLines(ignore: string, template: string): string[] {
  const present = new Set(readFileSync(ignore, 'utf8').split(/\r?\n/).map((line) => line.trim().replace(/^\//, '')));
  return template.split('\n').filter((line) => line !== '' && !present.has(line) && !present.has(line.replace(/\/$/, '')));
}

/** Adds the scripts that are missing; a script the project already has is its own. */
function addScripts(manifest: string): string[] {
  let parsed: { scripts?: Record<string, string> } & Record<string, unknown>;
  try {
    parsed = JSON.parse(readFileSync(manifest, 'utf8')) as typeof parsed;
  } catch (error) {
    throw new CliUsageError(`${manifest} is not valid JSON (${(error as Error).message}); fix it or init another folder`);
  }
  const current = parsed.scripts ?? {};
  const added = Object.keys(scripts).filter((name) => current[name] === undefined);
  if (added.length === 0) return [];
  parsed.scripts = { ...current, ...Object.fromEntries(added.map((name) => [name, scripts[name]!])) };
  writeFileSync(manifest, `${JSON.stringify(parsed, null, 2)}\n`);
  return added;
}

function packageName(folder: string): string {
  const name = basename(folder).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '');
  return name === '' ? 'plumb-app' : name;
}
