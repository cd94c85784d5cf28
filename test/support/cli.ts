import { runCli } from '../../src/cli/index.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `plumb <args>` in-process and captures what it prints. */
export async function plumb(...args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}
