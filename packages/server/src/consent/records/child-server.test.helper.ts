// A reference server in a child process for the crash test: `node --conditions=source --import tsx
// child-server.test.helper.ts <dataDir>` starts it on a free port with a test clock and prints one JSON line with
// its URL and sandbox credentials. SIGTERM closes it; SIGKILL is what the crash test sends (or the import hook).
import { startServer } from '../../server.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: child-server.test.helper.ts <dataDir>');
const server = await startServer({ port: 0, dataDir, clock: true });
process.stdout.write(
  `${JSON.stringify({ url: server.url, api_token: server.sandbox.api_token, application_id: server.sandbox.application_id })}\n`,
);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
