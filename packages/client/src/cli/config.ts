import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the command line finds the service and its credential. */
export interface CliConfig {
  baseUrl: string;
  /** `SVC_API_TOKEN`, else the sandbox's `api_token`; which one decides its rank against a signed-in person. */
  apiToken: string | undefined;
  apiTokenFrom: 'env' | 'sandbox' | undefined;
  /** `SVC_AGENT_TOKEN`: an agent token (`ra_agent_...`), used by the commands an agent runs (`authority check`, `escalations`). */
  agentToken: string | undefined;
  /** The sandbox's OAuth client (confidential) for `svc login`, when seeded. */
  oauthClientId: string | undefined;
  oauthClientSecret: string | undefined;
  /** The sandbox application, the default of commands that take `--app`. */
  applicationId: string | undefined;
  /** The sandbox demo flow, the default of `decisions create --flow`. */
  flowId: string | undefined;
  /** The sandbox's capturable flow, the default of `records create --flow`. */
  captureFlowId: string | undefined;
  /**
   * The base URL of each country cell, from the sandbox's `countries`: where a `421 wrong_country` answer is
   * re-issued. Only when the base URL is one of the sandbox's own cells, so a token for another service
   * (`SVC_BASE_URL`) is never sent to the sandbox's hosts; else the client asks the service (`GET /api/v1/countries`).
   */
  countries?: Record<string, string> | undefined;
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
  oauth_client_id?: unknown;
  oauth_client_secret?: unknown;
  countries?: unknown;
}

/** The sandbox's cells as `{ISO code: base_url}`, leaving out what is not a string. */
function cellsOf(countries: unknown): Record<string, string> {
  if (typeof countries !== 'object' || countries === null) return {};
  const cells: Record<string, string> = {};
  for (const [code, cell] of Object.entries(countries)) {
    const url = text((cell as { base_url?: unknown } | null)?.base_url);
    if (url) cells[code] = url;
  }
  return cells;
}

/** `url` without trailing slashes, to compare base URLs. */
const trimmed = (url: string) => url.replace(/\/+$/, '');

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** How to give the command line a service and a credential, for error messages. */
const CONFIG_HINT = 'set SVC_BASE_URL and SVC_API_TOKEN, or start the reference server (pnpm start), which writes .svc/sandbox.json';
/** How to give it a credential once it knows the service. */
export const CREDENTIAL_HINT =
  'set SVC_API_TOKEN or run svc login, or start the reference server (pnpm start), which writes .svc/sandbox.json';

/**
 * Resolves the configuration: `SVC_BASE_URL` and `SVC_API_TOKEN` first, then the `sandbox.json` the reference
 * server writes into its data directory (`SVC_DATA_DIR`, default `.svc` in the current directory). The API token
 * may be missing: a signed-in person (`svc login`) can stand in for it.
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
  if (!baseUrl) throw new CliUsageError(`no base URL: ${CONFIG_HINT}`);
  const apiTokenFrom = text(env.SVC_API_TOKEN) ? 'env' : text(sandbox.api_token) ? 'sandbox' : undefined;
  const fromEnv = [env.SVC_BASE_URL && 'SVC_BASE_URL', env.SVC_API_TOKEN && 'SVC_API_TOKEN'].filter(Boolean).join(', ');
  const cells = cellsOf(sandbox.countries);
  const ours = [text(sandbox.base_url), ...Object.values(cells)].some((url) => url !== undefined && trimmed(url) === trimmed(baseUrl));
  return {
    baseUrl,
    apiToken: text(env.SVC_API_TOKEN) ?? text(sandbox.api_token),
    apiTokenFrom,
    agentToken: text(env.SVC_AGENT_TOKEN),
    oauthClientId: text(sandbox.oauth_client_id),
    oauthClientSecret: text(sandbox.oauth_client_secret),
    applicationId: text(sandbox.application_id),
    flowId: text(sandbox.flow_id),
    captureFlowId: text(sandbox.capture_flow_id),
    countries: ours && Object.keys(cells).length ? cells : undefined,
    source: [fromEnv, readFrom].filter(Boolean).join(' and '),
  };
}
