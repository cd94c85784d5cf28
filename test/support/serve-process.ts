import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  /** Everything it printed so far, stdout and stderr. */
  readonly output: () => string;
}

/** Starts `plumb serve` as a user would, in its own process, and resolves once `ready` holds for what it printed. */
export async function startServe(args: readonly string[], ready: (output: string) => boolean = () => true): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'serve', ...args], { cwd: root });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined && ready(output)) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited early (${code}): ${output}`)));
  });
  return { child, url, output: () => output };
}
