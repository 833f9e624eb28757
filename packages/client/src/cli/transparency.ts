// `svc transparency …`: the public, signed transparency records (each verified against the service's JWKS before it
// is printed; one that does not verify is an error, exit 1) and the pinning of an agent's capability manifest.
import type { SvcClient } from '../lib/client.js';
import type { PinnedCapabilityManifest, SignedTransparencyRecord, TransparencyRecordType } from '@svc/schemas';
import { verifyTransparencyRecord } from '../verify/transparency.js';
import type { Command } from './commands.js';
import { CliUsageError } from './config.js';
import { application, flag } from './flags.js';
import { lines } from './output.js';

/** Verifies `signed` as a `recordType` against the service's JWKS and names the key that signed it. */
async function verified<T extends TransparencyRecordType>(svc: SvcClient, signed: SignedTransparencyRecord, recordType: T) {
  const record = await verifyTransparencyRecord(signed, await svc.receipts.jwks(), { recordType });
  const header = JSON.parse(Buffer.from(signed.signature.split('.')[0]!, 'base64url').toString('utf8')) as { kid?: string; alg?: string };
  return { record, signature: `valid (${header.alg}, key ${header.kid})` };
}

function manifestLines(m: Pick<PinnedCapabilityManifest, 'agent_id' | 'version' | 'manifest' | 'digest' | 'pinned_at'>): string {
  return lines([
    ['agent', m.agent_id],
    ['version', m.version],
    ['digest', m.digest],
    ['pinned', m.pinned_at],
    ['name', m.manifest.name],
    ['type', m.manifest.agent_type],
    ['scopes', m.manifest.delegated_scopes.join(' ')],
    ['capabilities', m.manifest.capabilities.join(', ')],
    ['operator', m.manifest.operator_name],
    ['privacy policy', m.manifest.privacy_policy_url],
    ['data storage', m.manifest.data_storage],
    ['retention', m.manifest.retention_period],
  ]);
}

const VERSION = /^[1-9][0-9]{0,8}$/;

/** The transparency commands, merged into the command list by `run`. */
export const transparencyCommands: Record<string, Command> = {
  'transparency application': {
    usage: 'transparency application [--app <application_id>]',
    summary: "Show an application's controller record (public, signed; verified against the JWKS)",
    options: { app: { type: 'string' } },
    async run(svc, { flags, config }) {
      const id = application({ flags, config });
      const signed = await svc.transparency.getApplication(id);
      const { record, signature } = await verified(svc, signed, 'controller_record');
      return {
        json: signed,
        human: lines([
          ['signature', signature],
          ['controller', `${record.controller.party_name} (${record.controller.party_id})`],
          ['organisation', record.organization_name],
          ['environment', `${record.environment}, region ${record.region}${record.active ? '' : ', inactive'}`],
          ['receipts', `${record.receipts.schema_version} (${record.receipts.conforms_to})`],
          ['schema', record.receipts.schema_url],
          ['verify with', record.receipts.jwks_uri],
          [
            'withdraw (authorization)',
            `${record.withdrawal.authorization_records.method} ${record.withdrawal.authorization_records.url_template}`,
          ],
          ['withdraw (consent)', `${record.withdrawal.consent_records.method} ${record.withdrawal.consent_records.url_template}`],
          ['revoke (delegation)', `${record.withdrawal.delegation_grants.method} ${record.withdrawal.delegation_grants.url_template}`],
          ['issued', record.issued_at],
        ]),
      };
    },
  },

  'transparency agent': {
    usage: 'transparency agent <agent_id>',
    summary: "Show an agent's accountability record (public, signed; verified against the JWKS)",
    args: ['agent_id'],
    async run(svc, { args: [id] }) {
      const signed = await svc.transparency.getAgent(id!);
      const { record, signature } = await verified(svc, signed, 'agent_accountability_record');
      const credentials = record.credential_attestations.map(
        (c) =>
          `${c.credential_type} ${c.client_id} (${c.status}${c.token_endpoint_auth_method ? `, ${c.token_endpoint_auth_method}` : ''} at ${c.token_endpoint})`,
      );
      const manifests = record.manifests.map((m) => `  v${m.version}  ${m.digest}  ${m.pinned_at}`);
      return {
        json: signed,
        human: `${lines([
          ['signature', signature],
          ['agent', `${record.declared.display_name} (${record.agent_id})`],
          ['type', record.declared.agent_type],
          ['operator', record.declared.operator_name],
          ['capabilities', record.declared.capabilities.join(', ')],
          ['status', `${record.attested.status} since ${record.attested.status_changed_at}`],
          ['registered', record.attested.registered_at],
          ['credentials', credentials.join('; ')],
          ['attested', record.attested.attested_at],
        ])}\n\nManifests:\n${manifests.length ? manifests.join('\n') : '  (none pinned)'}`,
      };
    },
  },

  'transparency manifest': {
    usage: 'transparency manifest <agent_id> <version>',
    summary: "Show a pinned version of an agent's capability manifest (signed; signature and digest verified)",
    args: ['agent_id', 'version'],
    async run(svc, { args: [id, version] }) {
      if (!VERSION.test(version!)) throw new CliUsageError('<version> is a whole number of at least 1');
      const signed = await svc.transparency.getManifest(id!, Number(version));
      const { record, signature } = await verified(svc, signed, 'capability_manifest_record');
      return {
        json: signed,
        human: `${lines([
          ['signature', signature],
          ['digest check', 'the digest is the SHA-256 of the manifest'],
        ])}\n${manifestLines(record)}`,
      };
    },
  },

  'transparency pin': {
    usage: 'transparency pin <agent_id> --scopes <scopes>',
    summary: "Pin the agent's capability manifest as it is now, with the scopes it is declared to request",
    options: { scopes: { type: 'string' } },
    args: ['agent_id'],
    async run(svc, { args: [id], flags }) {
      const scopes = (flag(flags, 'scopes') ?? '').split(/[\s,]+/).filter(Boolean);
      if (scopes.length === 0) throw new CliUsageError('transparency pin needs --scopes <scope,scope,...>');
      const pinned = await svc.transparency.pinManifest(id!, { delegated_scopes: scopes });
      return {
        json: pinned,
        human: `${manifestLines(pinned)}\n\nPublished at /.well-known/transparency/agents/${pinned.agent_id}/manifests/${pinned.version}`,
      };
    },
  },

  'transparency manifests': {
    usage: 'transparency manifests <agent_id>',
    summary: "List an agent's pinned capability manifest versions",
    args: ['agent_id'],
    async run(svc, { args: [id] }) {
      const items: PinnedCapabilityManifest[] = [];
      for await (const item of svc.transparency.listManifests(id!, { limit: 100 })) items.push(item);
      const human = items.length
        ? [
            ['VERSION', 'DIGEST'.padEnd(71), 'PINNED'.padEnd(24), 'SCOPES'].join('  '),
            ...items.map((m) =>
              [String(m.version).padEnd(7), m.digest, m.pinned_at.padEnd(24), m.manifest.delegated_scopes.join(' ')].join('  '),
            ),
          ].join('\n')
        : 'No pinned manifests.';
      return { json: items, human };
    },
  },
};
