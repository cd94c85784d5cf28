#!/usr/bin/env node
import { runCli } from './program.js';

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  ...(process.stdout.isTTY === true ? { stdoutColumns: process.stdout.columns } : {}),
});
process.exitCode = code;
