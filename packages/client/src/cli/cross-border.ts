// `svc credentials …`, `svc presentations verify`, `svc transfer-register …`, `svc residency …`, `svc breach-scope …`
// and `svc evidence verify`: the cross-border proofs, and the signed evidence of where data lives and travels.
import { readFileSync } from 'node:fs';
import type { SvcClient } from '../lib/client.js';
import {
  breachCredentialType,
  type BreachCredentialType,
  type Credential,
  type CredentialStatus,
  type EvidencePackage,
} from '@svc/schemas';
import { verifyEvidencePackage } from '../verify/evidence.js';
import type { Command, Invocation } from './commands.js';
import { CliUsageError } from './config.js';
import { flag, required, take } from './flags.js';
import { lines } from './output.js';

const limitOf = (flags: Invocation['flags']): number => {
  const text = flag(flags, 'limit') ?? '20';
  if (!/^[1-9][0-9]{0,2}$/.test(text) || Number(text) > 100) throw new CliUsageError('--limit is a whole number from 1 to 100');
  return Number(text);
};
/** A file's text, or standard input's for `-`, trimmed. */
function readInput(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8').trim();
  } catch (err) {
    throw new CliUsageError(`cannot read ${path === '-' ? 'standard input' : path}: ${(err as Error).message}`);
  }
}

const credentialLines = (c: Credential) =>
  lines([
    ['id', c.id],
    ['type', `${c.credential_type} (${c.format})`],
    ['status', c.status],
    ['home country', c.home_country],
    ['consent', c.consent_transaction_id],
    ['purposes', c.purposes.join(', ')],
    ['issued', c.issued_at],
    ['expires', c.expires_at],
    ['revoked', c.revoked_at],
  ]);

/** An evidence package the service drew, verified against its JWKS before it is shown (`--json` prints it whole). */
async function evidenceOut(svc: SvcClient, evidence: EvidencePackage) {
  const { payload, kid } = await verifyEvidencePackage(evidence, await svc.receipts.jwks());
  return {
    json: evidence,
    human: lines([
      ['package', evidence.evidence_package_id],
      ['format', evidence.format_type],
      ['signature', `valid (ES256, key ${kid})`],
      ['drawn', payload.drawn_at as string],
    ]),
  };
}

const STATUSES: readonly CredentialStatus[] = ['active', 'revoked', 'expired'];

/** The cross-border commands, merged into the command list by `run`. */
export const crossBorderCommands: Record<string, Command> = {
  'credentials issue': {
    usage: 'credentials issue --transaction <ctxn_...> --type <credential_type> [--days <n>]',
    summary: 'Issue an SD-JWT credential of a fulfilled consent (in its home country); prints it once in --json',
    options: { transaction: { type: 'string' }, type: { type: 'string' }, days: { type: 'string' } },
    async run(svc, { flags }) {
      const days = flag(flags, 'days');
      if (days !== undefined && !/^[1-9][0-9]{0,2}$/.test(days)) throw new CliUsageError('--days is a whole number of days');
      const credential = await svc.credentials.create({
        consent_transaction_id: required(flags, 'transaction'),
        credential_type: required(flags, 'type'),
        ...(days ? { validity_days: Number(days) } : {}),
      });
      return { json: credential, human: `${credentialLines(credential)}\n\n${credential.credential}` };
    },
  },
  'credentials get': {
    usage: 'credentials get <id>',
    summary: 'Show a credential: its status, purposes and home country',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const credential = await svc.credentials.get(id!);
      return { json: credential, human: credentialLines(credential) };
    },
  },
  'credentials list': {
    usage: 'credentials list [--status active|revoked|expired] [--limit <n>]',
    summary: 'List the credentials issued in the answering country',
    options: { status: { type: 'string' }, limit: { type: 'string' } },
    async run(svc, { flags }) {
      const status = flag(flags, 'status');
      if (status !== undefined && !STATUSES.includes(status as CredentialStatus))
        throw new CliUsageError(`--status is one of ${STATUSES.join(', ')}`);
      const items = await take(svc.credentials.list(status ? { status: status as CredentialStatus } : {}), limitOf(flags));
      return {
        json: items,
        human: items.length
          ? items.map((c) => `${c.id}  ${c.status.padEnd(7)}  ${c.credential_type}  ${c.expires_at}`).join('\n')
          : '(none)',
      };
    },
  },
  'credentials revoke': {
    usage: 'credentials revoke <id>',
    summary: 'Revoke a credential: its status list bit is set; verifiers see it once their cached list expires',
    args: ['id'],
    async run(svc, { args: [id] }) {
      const credential = await svc.credentials.revoke(id!);
      return { json: credential, human: credentialLines(credential) };
    },
  },
  'presentations verify': {
    usage: 'presentations verify <file|-> [--nonce <n>] [--audience <url>]',
    summary: "Verify a holder's presentation (from a file or stdin) against its issuing country's published key",
    options: { nonce: { type: 'string' }, audience: { type: 'string' } },
    args: ['file'],
    async run(svc, { args: [file], flags }) {
      const nonce = flag(flags, 'nonce');
      const audience = flag(flags, 'audience');
      const result = await svc.presentations.verify({
        presentation: readInput(file!),
        ...(nonce ? { nonce } : {}),
        ...(audience ? { audience } : {}),
      });
      return {
        json: result,
        exitCode: result.valid ? 0 : 1,
        human: lines([
          ['valid', result.valid ? 'yes' : 'no'],
          ['revoked', result.revoked ? 'yes' : 'no'],
          ['issuer', `${result.issuer} (${result.issuer_country})`],
          ['type', result.credential_type],
          ['disclosed', JSON.stringify(result.disclosed_claims)],
          ['undisclosed', result.undisclosed_count],
          ['status checked', result.status_checked_at],
        ]),
      };
    },
  },
  'transfer-register list': {
    usage: 'transfer-register list [--app <id>] [--limit <n>]',
    summary: 'List cross-border transfers: what crossed, from and to which country, basis and adequacy',
    options: { app: { type: 'string' }, limit: { type: 'string' } },
    async run(svc, { flags }) {
      const app = flag(flags, 'app');
      const items = await take(svc.transferRegister.list(app ? { application_id: app } : {}), limitOf(flags));
      return {
        json: items,
        human: items.length
          ? items
              .map((t) => `${t.created_at}  ${t.from_country} -> ${t.to_country}  ${t.category}  ${t.adequacy} (${t.lawful_basis})`)
              .join('\n')
          : '(none)',
      };
    },
  },
  'transfer-register evidence': {
    usage: 'transfer-register evidence [--app <id>]',
    summary: 'Draw a signed evidence package of the transfer register (verified before it is printed)',
    options: { app: { type: 'string' } },
    async run(svc, { flags }) {
      const app = flag(flags, 'app');
      return evidenceOut(svc, await svc.transferRegister.evidencePackage(app ? { application_id: app } : {}));
    },
  },
  'residency posture': {
    usage: 'residency posture',
    summary: "Show where subjects' data is stored, per country cell, with its assurance",
    async run(svc) {
      const posture = await svc.residencyPosture.get();
      const rows = posture.countries.map(
        (c) =>
          `${c.country}  ${c.assurance.padEnd(9)}  subjects ${c.subjects}, records ${c.consent_records + c.authorization_records + c.notice_records}, decisions ${c.decisions}${c.rows_homed_elsewhere ? `, ${c.rows_homed_elsewhere} homed elsewhere` : ''}`,
      );
      return { json: posture, human: `assurance  ${posture.assurance} (drawn ${posture.drawn_at})\n${rows.join('\n')}` };
    },
  },
  'residency evidence': {
    usage: 'residency evidence',
    summary: 'Draw a signed evidence package of the residency posture (verified before it is printed)',
    async run(svc) {
      return evidenceOut(svc, await svc.residencyPosture.evidencePackage());
    },
  },
  'breach-scope report': {
    usage:
      'breach-scope report --type api_token|agent_token|publishable_key --id <credential> --from <date-time> [--to <date-time>] [--evidence]',
    summary: 'What a leaked credential could have touched: counts and categories (admin); --evidence signs it',
    options: {
      type: { type: 'string' },
      id: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      evidence: { type: 'boolean' },
    },
    async run(svc, { flags }) {
      const type = required(flags, 'type');
      if (!breachCredentialType.options.includes(type as BreachCredentialType))
        throw new CliUsageError(`--type is one of ${breachCredentialType.options.join(', ')}`);
      const to = flag(flags, 'to');
      const request = {
        credential_type: type as BreachCredentialType,
        credential_id: required(flags, 'id'),
        window: { from: required(flags, 'from'), ...(to ? { to } : {}) },
      };
      if (flags.evidence === true) return evidenceOut(svc, await svc.breachScope.evidencePackage(request));
      const scope = await svc.breachScope.report(request);
      return {
        json: scope,
        human: `${lines([
          ['credential', `${scope.credential.type} ${scope.credential.fingerprint}`],
          ['window', `${scope.window.from} .. ${scope.window.to}`],
          ['used in window', scope.used_in_window ? 'yes' : 'no'],
          ['subjects', scope.subjects_affected],
          ['records', scope.records_count],
          ['coverage', scope.coverage],
        ])}\n${scope.caveats.map((c) => `  - ${c}`).join('\n')}`,
      };
    },
  },
  'evidence verify': {
    usage: 'evidence verify <file|->',
    summary: "Verify an evidence package offline against the service's JWKS (exit 1 when it does not verify)",
    args: ['file'],
    async run(svc, { args: [file] }) {
      let evidence: EvidencePackage;
      try {
        evidence = JSON.parse(readInput(file!)) as EvidencePackage;
      } catch (err) {
        if (err instanceof CliUsageError) throw err;
        throw new CliUsageError(`${file} is not JSON`);
      }
      const { payload, kid } = await verifyEvidencePackage(evidence, await svc.receipts.jwks());
      return {
        json: payload,
        human: lines([
          ['package', evidence.evidence_package_id],
          ['format', evidence.format_type],
          ['signature', `valid (ES256, key ${kid})`],
          ['drawn', payload.drawn_at as string],
        ]),
      };
    },
  },
};
