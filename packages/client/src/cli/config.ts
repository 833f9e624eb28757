import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the command line finds the service and its credential. */
export interface CliConfig {
  baseUrl: string;
  apiToken: string;
  /** The sandbox application, the default of commands that take `--app`. */
  applicationId: string | undefined;
  /** The sandbox demo flow, the default of `decisions create --flow`. */
  flowId: string | undefined;
  /** The sandbox's capturable flow, the default of `records create --flow`. */
  captureFlowId: string | undefined;
  /** Where the values came from, for error messages. */
  source: string;
}

/** A setup problem the user can fix (exit code 2). */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

interface SandboxFile {
  base_url?: unknown;
  api_token?: unknown;
  application_id?: unknown;
  flow_id?: unknown;
  capture_flow_id?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Resolves the configuration: `SVC_BASE_URL` and `SVC_API_TOKEN` first, then the `sandbox.json` the reference
 * server writes into its data directory (`SVC_DATA_DIR`, default `.svc` in the current directory).
 */
export function loadConfig(env: Record<string, string | undefined>, cwd: string): CliConfig {
  const file = join(resolve(cwd, env.SVC_DATA_DIR || '.svc'), 'sandbox.json');
  let sandbox: SandboxFile = {};
  let readFrom: string | undefined;
  try {
    sandbox = JSON.parse(readFileSync(file, 'utf8')) as SandboxFile;
    readFrom = file;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new CliUsageError(`cannot read ${file}: ${(err as Error).message}`);
  }

  const baseUrl = text(env.SVC_BASE_URL) ?? text(sandbox.base_url);
  const apiToken = text(env.SVC_API_TOKEN) ?? text(sandbox.api_token);
  const hint = 'set SVC_BASE_URL and SVC_API_TOKEN, or start the reference server (pnpm start), which writes .svc/sandbox.json';
  if (!baseUrl) throw new CliUsageError(`no base URL: ${hint}`);
  if (!apiToken) throw new CliUsageError(`no API token: ${hint}`);
  const fromEnv = [env.SVC_BASE_URL && 'SVC_BASE_URL', env.SVC_API_TOKEN && 'SVC_API_TOKEN'].filter(Boolean).join(', ');
  return {
    baseUrl,
    apiToken,
    applicationId: text(sandbox.application_id),
    flowId: text(sandbox.flow_id),
    captureFlowId: text(sandbox.capture_flow_id),
    source: [fromEnv, readFrom].filter(Boolean).join(' and '),
  };
}
