/**
 * The organisation's server side of svc, with `@svc/client`: create a decision for the page, exchange what the
 * page hands back, read a decision after a redirect, and commit the capture token a form posts. The API token
 * stays here; the browser only ever sees session tokens. examples/site/backend.ts serves the pages around it.
 */
import { createClient } from '@svc/client';

/** Where this site stands with the service. */
export interface SvcSettings {
  /** The service, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** The application's API token (secret: it stays on this server). */
  apiToken: string;
  /** The flow the decisions ask about (`flw_...`). */
  flowId: string;
  /** This site's own origin, e.g. `http://localhost:3000` (an allowed origin of the application). */
  origin: string;
}

export function createDecisions(settings: SvcSettings) {
  const svc = createClient({ baseUrl: settings.baseUrl, apiToken: settings.apiToken });
  // Which decision each order waits for (a table in a real shop).
  const orders = new Map<string, string>();

  /** The page asks for a decision: create it with the API token and hand the page only its session token. */
  async function startDecision(mode: 'embed' | 'popup' | 'redirect') {
    const order = crypto.randomUUID();
    const decision = await svc.decisions.create({
      kind: 'consent',
      subject_ref: settings.flowId,
      delivery_mode: mode,
      embed_origin: settings.origin,
      ...(mode === 'redirect' ? { redirect_uri: `${settings.origin}/back.html?order=${order}` } : {}),
    });
    orders.set(order, decision.session_token);
    return { session_token: decision.session_token, order };
  }

  /** svc-complete carried an exchange_token: only the service can say what it is worth. */
  async function finishDecision(sessionToken: string, exchangeToken: string) {
    const { claims } = await svc.decisions.exchange(sessionToken, exchangeToken);
    if (claims.kind !== 'consent') throw new Error('expected a consent decision');
    return { purposes_granted: claims.purposes_granted };
  }

  /** After a redirect the arrival proves nothing: read the order's decision from the service. */
  async function orderStatus(order: string) {
    const token = orders.get(order);
    return token ? { status: (await svc.decisions.get(token)).status } : undefined;
  }

  /** The form posted svc_capture_token: commit it, binding the person by the email they typed. */
  async function signup(form: Record<string, string>) {
    const decision = await svc.decisions.authorize(form.svc_capture_token ?? '', { subject: { email: form.email ?? '' } });
    return { channel: decision.channel, record_id: decision.record_id };
  }

  return { startDecision, finishDecision, orderStatus, signup };
}
