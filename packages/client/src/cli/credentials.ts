// Where `svc login` keeps a person's sign-in: `$XDG_CONFIG_HOME/svc/credentials.json` (else
// `~/.config/svc/credentials.json`), readable by the user alone (file 0600, directory 0700), replaced atomically.
// Refreshing goes through a lock file, because the service rotates refresh tokens and refuses (ending the whole
// sign-in) a refresh token used twice: two `svc` processes must not refresh with the same one.
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { CliUsageError } from './config.js';

/** A signed-in person, as stored. */
export interface StoredCredentials {
  version: 1;
  /** The service's base URL, which is its issuer; the sign-in is used only against it. */
  issuer: string;
  client_id: string;
  /** The secret of a confidential client (the sandbox's), needed to refresh; absent for a public client. */
  client_secret?: string;
  refresh_token?: string;
  access_token: string;
  /** When the access token expires, in seconds since the epoch. */
  expires_at?: number;
  scope: string;
  /** The person's stable id (`sub`) and email, for messages. */
  subject?: string;
  email?: string;
  signed_in_at: string;
}

/** The credentials file for this environment (XDG_CONFIG_HOME only when absolute, as the XDG spec says). */
export function credentialsPath(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'svc', 'credentials.json');
}

/** The stored sign-in, or undefined when there is none. */
export function readCredentials(file: string): StoredCredentials | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliUsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as Partial<StoredCredentials>;
    if (
      value.version === 1 &&
      typeof value.issuer === 'string' &&
      typeof value.client_id === 'string' &&
      typeof value.access_token === 'string'
    ) {
      return value as StoredCredentials;
    }
  } catch {
    // Reported below.
  }
  throw new CliUsageError(`${file} is not a credentials file of this svc; run svc logout to remove it`);
}

/** Writes the sign-in: the directory made 0700, the file written 0600 beside it and renamed over the old one. */
export function writeCredentials(file: string, credentials: StoredCredentials): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Removes the sign-in; whether there was one. */
export function deleteCredentials(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

const LOCK_WAIT_MS = 15_000;
/** A lock older than this was left by a process that died; a refresh takes well under it. */
const LOCK_STALE_MS = 30_000;

/** Runs `work` holding `<file>.lock` (created exclusively), waiting for another process's lock up to 15 s. */
export async function withCredentialsLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const giveUp = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > LOCK_STALE_MS) rmSync(lock, { force: true });
      else if (Date.now() > giveUp) throw new CliUsageError(`${lock} is held by another svc process; remove it if none is running`);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}
