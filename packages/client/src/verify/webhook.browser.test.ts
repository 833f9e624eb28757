// verifyWebhook in every engine: the same Web Crypto code path as Node, checked against signatures made by Node's
// crypto module (the vector below), so both runtimes agree on the contract.
import { expect } from '@open-wc/testing';
import { signWebhook, verifyWebhook } from '../index.js';

const body =
  '{"id":"evt_browser000000001","type":"approval.denied","application_id":"tp_dev_browser","occurred_at":"2025-06-15T15:06:40.000Z","data":{"decision_id":"dec_1","escalation_id":"esc_1","outcome":"denied","counter_proposal":null,"user_id":null,"scope":null,"state":null,"decided_at":"2025-06-15T15:06:40.000Z"}}';
const t = 1750000000;
const headers = new Headers({
  'X-Svc-Event-ID': 'evt_browser000000001',
  'X-Svc-Event-Type': 'approval.denied',
  'X-Svc-Timestamp': String(t),
  'X-Svc-Signature': `t=${t},v1=c6bd8a99a57cac63140a08ba61a8b6e6a5bbf662725b5da861ea7cb920472e53,v1=a361ec8641d41c9b55974a9ef069d24d38017c2de02f9b3897555c72cd9a0f04`,
});

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('verifyWebhook in the browser', () => {
  it('verifies a delivery signed by the server with either secret of a rotation', async () => {
    for (const secret of ['whsec_browser_new', 'whsec_browser_old']) {
      const event = await verifyWebhook(body, headers, secret, { now: t * 1000 });
      expect(event.type).to.equal('approval.denied');
      if (event.type === 'approval.denied') expect(event.data.escalation_id).to.equal('esc_1');
    }
  });

  it('refuses a wrong secret, an altered body and a stale timestamp', async () => {
    expect(await code(verifyWebhook(body, headers, 'whsec_other', { now: t * 1000 }))).to.equal('ERR_SVC_WEBHOOK_SIGNATURE');
    expect(await code(verifyWebhook(body.replace('esc_1', 'esc_2'), headers, 'whsec_browser_new', { now: t * 1000 }))).to.equal(
      'ERR_SVC_WEBHOOK_SIGNATURE',
    );
    expect(await code(verifyWebhook(body, headers, 'whsec_browser_new', { now: (t + 301) * 1000 }))).to.equal('ERR_SVC_WEBHOOK_TIMESTAMP');
  });

  it('signs exactly as the server does', async () => {
    const signed = await signWebhook(new TextEncoder().encode(body), ['whsec_browser_new', 'whsec_browser_old'], { timestamp: t });
    expect(signed['x-svc-signature']).to.equal(headers.get('x-svc-signature'));
  });
});
