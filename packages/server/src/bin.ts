#!/usr/bin/env node
// No top-level await: the file is built with the package's entry, which is CommonJS too.
async function main(): Promise<void> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) {
    // oidc-provider warns on load on Node 20; say first that this is expected, so a newcomer does not go looking.
    console.log(
      `svc supports Node >=20.19 (this is ${process.versions.node}). The OpenID provider library below prints ` +
        `"Unsupported runtime" on Node 20: expected, and harmless here.`,
    );
  }
  // Loaded here, after the note above, rather than at the first sign-in: oidc-provider prints its warning as it
  // loads, and the service itself loads it on first use.
  await import('oidc-provider');
  const { startServer } = await import('./server.js');
  const { witnessLine, witnessOptionsFromEnv, witnessSettingsOf } = await import('./consent/audit/witnesses.js');
  const server = await startServer();
  const { sandbox } = server;
  console.log(`svc reference server on ${server.url}
  playground        ${server.url}/
  trust url         ${sandbox.trust_url}
  country cells     ${Object.values(server.cells)
    .map((cell) => `${cell.country} ${cell.url}`)
    .join(', ')} (SVC_COUNTRIES)
  application       ${sandbox.application_id}
  publishable key   ${sandbox.publishable_key}
  demo flow         ${sandbox.flow_id ?? '(none)'} (standard path: sign-in, verify, review)
  informed flow     ${sandbox.informed_flow_id ?? '(none)'} (disclosures, comprehension check)
  capture flow      ${sandbox.capture_flow_id ?? '(none)'} (for <svc-consent-field> and the snippet)
  oauth client      ${sandbox.oauth_client_id ?? '(none)'} (confidential; sign in at ${server.url}/.well-known/openid-configuration)
  sandbox file      ${server.context.dataDir}/sandbox.json (holds the admin API token and the OAuth client secret)
  mail              ${mailLine(server.url)}
  audit witness     ${witnessLine(witnessSettingsOf(witnessOptionsFromEnv(process.env)))}
${server.context.testClock ? '  test clock        on (POST /api/v1/test_clock/advance)\n' : ''}`);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void server.close().then(() => process.exit(0));
    });
  }
}

/** Where mail goes: the SMTP server (`SVC_SMTP_URL`, shown without credentials), else the sandbox mailbox. */
function mailLine(url: string): string {
  const smtp = process.env.SVC_SMTP_URL;
  if (!smtp) return `sandbox mailbox ${url}/playground/mailbox (set SVC_SMTP_URL=smtp://host:port to send)`;
  const { protocol, host } = new URL(smtp);
  return `${protocol}//${host} from ${process.env.SVC_MAIL_FROM || 'svc <no-reply@localhost>'} (SVC_SMTP_URL, SVC_MAIL_FROM)`;
}

void main();
