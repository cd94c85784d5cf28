import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { PlumbError } from '../core/index.js';
import { evalDatasetSchema } from './dataset-schema.js';
import type { EvalDataset } from './dataset-schema.js';

/** Parses a dataset from YAML or JSON text; `source` names it in error messages. */
export function parseDataset(text: string, source = 'dataset'): EvalDataset {
  let data: unknown;
  try {
    data = parseYaml(text) as unknown;
  } catch (error) {
    throw new PlumbError('eval_dataset_unreadable', `${source} is not YAML or JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = evalDatasetSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 10).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    const more = parsed.error.issues.length > 10 ? ` (and ${parsed.error.issues.length - 10} more)` : '';
    throw new PlumbError('eval_dataset_invalid', `${source} does not match the dataset shape: ${problems.join('; ')}${more}`, {
      details: { issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })) },
    });
  }
  return parsed.data;
}

/** Reads and parses a dataset file. */
export async function loadDataset(path: string): Promise<EvalDataset> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new PlumbError('eval_dataset_unreadable', `Cannot read the dataset '${path}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  return parseDataset(text, path);
}

/** The folder of the datasets Plumb ships (`evals/datasets` in the package). */
export const packagedDatasetsFolder = fileURLToPath(new URL('../../evals/datasets/', import.meta.url));

/** The names of the packaged datasets, sorted. */
export async function packagedDatasetNames(): Promise<string[]> {
  const files = await readdir(packagedDatasetsFolder);
  return files.filter((file) => file.endsWith('.yaml')).map((file) => file.slice(0, -'.yaml'.length)).sort();
}

/**
 * A dataset by name (a packaged one) or by path (a `.yaml`, `.yml` or `.json` file, or anything
 * with a slash, from `cwd`). An unknown name fails with `eval_dataset_unknown`, listing the names.
 */
export async function resolveDataset(spec: string, cwd: string): Promise<EvalDataset> {
  if (/[\\/]/.test(spec) || /\.(ya?ml|json)$/i.test(spec)) return loadDataset(resolve(cwd, spec));
  const names = await packagedDatasetNames();
  if (!names.includes(spec)) {
    throw new PlumbError('eval_dataset_unknown', `Unknown dataset '${spec}': give a file path (./my-cases.yaml) or one of ${names.join(', ')}.`, { details: { dataset: spec } });
  }
  return loadDataset(join(packagedDatasetsFolder, `${spec}.yaml`));
}
