import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import of one file: the file it names (relative to the root, `/`-separated) and how. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  /** `import('…')`: loaded when called, still a dependency. */
  readonly dynamic: boolean;
}

/** The TypeScript files below `folder` (relative to `root`), skipping declaration files. */
export function sourceFiles(root: string, folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts')) found.push(toKey(root, path));
    }
  };
  const start = join(root, folder);
  if (existsSync(start)) walk(start);
  return found;
}

/**
 * The relative imports of a file (static, `export … from`, and `import()`), resolved to files
 * under `root`; bare specifiers (packages) are none of the layers' business.
 */
export function fileImports(root: string, file: string): ImportEdge[] {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, dynamic: boolean): void => {
    if (!specifier.startsWith('.')) return;
    const to = resolveSpecifier(root, file, specifier);
    if (to !== undefined) edges.push({ from: file, to, dynamic });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteralLike(argument)) add(argument.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** `./x.js` → `x.ts` (or `x/index.ts`), as NodeNext resolution finds the source of an emitted name. */
function resolveSpecifier(root: string, file: string, specifier: string): string | undefined {
  const base = resolve(root, dirname(file), specifier);
  const stem = base.replace(/\.(m?js|tsx?)$/, '');
  const candidates = [`${stem}.ts`, `${stem}.mts`, `${stem}.tsx`, join(base, 'index.ts'), base];
  const hit = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return hit === undefined ? undefined : toKey(root, hit);
}

function toKey(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
