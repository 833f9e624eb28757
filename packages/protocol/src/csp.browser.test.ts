// Every engine under a strict Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval', no
// nonce): validating messages must never compile a string nor make the browser report a violation. zod/mini's objects never take zod's
// JIT path, the one place zod evaluates code (see the README's CSP note); this test keeps it that way across zod
// upgrades and schema changes, and its controls show it would see the violation if they did.
import { expect } from '@open-wc/testing';
import { KINDS, MESSAGE_TYPES } from './index.js';

const FIXTURE = '/packages/protocol/test/fixtures/csp.html';

interface Violation {
  directive: string;
  blockedURI: string;
  sourceFile: string;
}

interface Report {
  fixture: 'csp';
  parsed?: number;
  error?: string;
  violations: Violation[];
  /** Every `new Function`/`Function()`/`eval` of the page, as `<what> refused|allowed by <caller's path>`. */
  compiles: string[];
}

// WebKit (WebKitGTK 2.50, Safari's engine) refuses eval under CSP without dispatching securitypolicyviolation: a
// platform limit the README lists. There the compile attempts are what shows the probe.
const reportsEvalViolations = !(/AppleWebKit/.test(navigator.userAgent) && !/Chrome|Chromium/.test(navigator.userAgent));

const frames: HTMLIFrameElement[] = [];

/** Loads the strict-CSP fixture in an iframe and resolves with its report. */
function load(query = ''): Promise<Report> {
  return new Promise((resolve) => {
    const iframe = document.createElement('iframe');
    const listener = (event: MessageEvent) => {
      if (event.source !== iframe.contentWindow || event.data?.fixture !== 'csp') return;
      removeEventListener('message', listener);
      resolve(event.data as Report);
    };
    addEventListener('message', listener);
    iframe.src = `${FIXTURE}${query}`;
    document.body.append(iframe);
    frames.push(iframe);
  });
}

describe('@svc/protocol under a strict CSP', () => {
  afterEach(() => {
    for (const iframe of frames.splice(0)) iframe.remove();
  });

  it('validates every message type of every kind, with channel, port and clock, and triggers no violation', async () => {
    const report = await load();
    expect(report.error).to.equal(undefined);
    // 7 types x 3 kinds (consent, approval, signature_request) x 5 checks, 3 rejections, and the seven messages
    // through the channel.
    expect([MESSAGE_TYPES.length, KINDS.length]).to.deep.equal([7, 3]);
    expect(report.parsed).to.equal(7 * 3 * 5 + 3 + 1);
    expect(report.compiles).to.deep.equal([]);
    expect(report.violations).to.deep.equal([]);
  });

  it("sees classic zod's eval probe refused, which zod catches and the browser reports anyway", async () => {
    const report = await load('?probe=classic');
    expect(report.error).to.equal(undefined);
    expect(report.compiles).to.have.length(1);
    expect(report.compiles[0]).to.match(/^Function refused by .*\/zod\/v4\/core\/util\.js$/);
    if (!reportsEvalViolations) {
      expect(report.violations).to.deep.equal([]);
      return;
    }
    expect(report.violations.map(({ directive, blockedURI }) => `${directive} ${blockedURI}`)).to.deep.equal(['script-src eval']);
  });

  it('sees none from classic zod after config({ jitless: true }), the advice for host pages that use it', async () => {
    const report = await load('?probe=classic-jitless');
    expect(report.error).to.equal(undefined);
    expect(report.compiles).to.deep.equal([]);
    expect(report.violations).to.deep.equal([]);
  });
});
