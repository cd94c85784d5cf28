import { readdirSync, readFileSync } from 'node:fs';

/** What `GET /console/client/:file` answers: a module's text, or why there is none. */
export type ClientModule =
  | { readonly kind: 'module'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unavailable'; readonly message: string };

/** The modules of `plumb-agent/client` as the console's page imports them (`./client/index.js`). */
export interface ClientModules {
  /** `client.js` → that module; any name that is not one of the folder's modules → `missing`. */
  read(name: string): Promise<ClientModule>;
}

/** The part of esbuild's API used here, declared so that the build needs neither esbuild nor its types. */
interface Transformer {
  transform(source: string, options: Record<string, unknown>): Promise<{ readonly code: string }>;
}

/**
 * The client's modules from the folder beside the server's: `dist/client/` in the build and in an
 * installed package, where they are plain ES modules served as they are; `src/client/` in a
 * checkout run through tsx or vitest (`npm start` does not build), where each `.ts` file is
 * compiled on its first request with esbuild, a development dependency (tsx runs on it) loaded
 * only on that path. Names are looked up in the folder's listing, taken once: a request never
 * names a path. Undefined when the folder holds neither.
 */
export function clientModules(dir: URL = new URL('../client/', import.meta.url)): ClientModules | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  if (names.includes('index.js')) return builtModules(dir, names.filter((name) => name.endsWith('.js')));
  if (names.includes('index.ts')) return sourceModules(dir, names.filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts')));
  return undefined;
}

function builtModules(dir: URL, files: readonly string[]): ClientModules {
  // The build's source maps point at sources the package does not ship: their comment goes.
  const texts = new Map(files.map((name) => [name, readFileSync(new URL(name, dir), 'utf8').replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n')]));
  return {
    read: (name) => {
      const text = texts.get(name);
      return Promise.resolve(text === undefined ? { kind: 'missing' } : { kind: 'module', text });
    },
  };
}

function sourceModules(dir: URL, files: readonly string[]): ClientModules {
  const sources = new Set(files.map((name) => name.replace(/\.ts$/, '')));
  const compiled = new Map<string, Promise<ClientModule>>();
  let transformer: Promise<Transformer> | undefined;
  const compile = async (stem: string): Promise<ClientModule> => {
    // A variable specifier: a bundler of the built server never tries to resolve esbuild.
    const specifier = 'esbuild';
    transformer ??= import(specifier) as Promise<Transformer>;
    let esbuild: Transformer;
    try {
      esbuild = await transformer;
    } catch {
      transformer = undefined;
      return { kind: 'unavailable', message: 'The client modules of this checkout are TypeScript, and esbuild (a development dependency) is not installed to compile them: run npm install, or npm run build and serve from dist/.' };
    }
    const source = readFileSync(new URL(`${stem}.ts`, dir), 'utf8');
    const { code } = await esbuild.transform(source, { loader: 'ts', format: 'esm', target: 'es2022', sourcefile: `${stem}.ts`, sourcemap: 'inline' });
    return { kind: 'module', text: code };
  };
  return {
    read: (name) => {
      const stem = name.endsWith('.js') ? name.slice(0, -3) : undefined;
      if (stem === undefined || !sources.has(stem)) return Promise.resolve({ kind: 'missing' });
      let pending = compiled.get(stem);
      if (pending === undefined) {
        pending = compile(stem);
        compiled.set(stem, pending);
        // Only a module is kept: a failure (esbuild missing, a file mid-edit) is tried again on the next request.
        const forget = (): void => void compiled.delete(stem);
        void pending.then((result) => (result.kind === 'module' ? undefined : forget()), forget);
      }
      return pending;
    },
  };
}
