#!/usr/bin/env node
/**
 * `svc`: the command line for everyday sandbox work, e.g. `svc me`, `svc tokens create --name ci`,
 * `svc decisions create --mode embed --embed-origin http://localhost:5173`, `svc verify <consent_token>`,
 * `svc login` (a person, by the device grant) and `svc logout`.
 * @module @svc/client/cli
 */
import { run } from './run.js';

// No top-level await: the file is built with the package's entries, which are CommonJS too.
void run(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  terminal: process.stdout.isTTY && process.stderr.isTTY ? process.stderr : undefined,
}).then((code) => {
  process.exitCode = code;
});
