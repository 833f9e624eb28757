// A page that only creates decisions, as a shop's checkout would: `pnpm size` reports what it costs after
// tree-shaking, which is the point of @svc/client's standalone functions.
import { connect, createDecision } from '@svc/client';

const svc = connect({ baseUrl: 'https://api.example.com', publishableKey: 'pk_test_0123456789abcdef' });

export async function askForConsent(flowId) {
  const decision = await createDecision(svc, {
    kind: 'consent',
    subject_ref: flowId,
    delivery_mode: 'embed',
    embed_origin: location.origin,
  });
  return decision.session_token;
}
