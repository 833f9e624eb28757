// Test support for mail: a real SMTP server on a loopback port (smtp-server) whose received messages are parsed
// with mailparser, and which can be told to refuse recipients with a temporary error.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A running SMTP server for one test file. */
export interface TestSmtp {
  url: string;
  /** Every message accepted so far, parsed, in order. */
  received: ParsedMail[];
  /** While true, every recipient is refused `451 Try again later`. */
  refuse: boolean;
  close(): Promise<void>;
}

/** Starts an SMTP server on 127.0.0.1 (port 0: a free one), without STARTTLS or AUTH. */
export async function startSmtp(): Promise<TestSmtp> {
  const state: TestSmtp = { url: '', received: [], refuse: false, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!state.refuse) return callback();
      callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          state.received.push(parsed);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  state.url = `smtp://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** The value of a raw header line of a parsed message (e.g. `list-unsubscribe`), unfolded. */
export function headerLine(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\r?\n\s+/g, ' ')
    .trim();
}
