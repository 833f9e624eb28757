// The HTTP agents every outbound request goes through. request-filtering-agent checks the address of each new
// connection after DNS resolution (every address a name resolves to) and refuses it before any byte is sent, so a
// name that resolves to a public address when checked and to loopback when used (DNS rebinding) is still refused.
// A kept-alive socket is reused only for requests of the same policy, to the same host and port.
import type http from 'node:http';
import type https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { OutboundPolicy } from './policy.js';

/** An http and an https agent enforcing one policy. */
export interface OutboundAgents {
  http: http.Agent;
  https: https.Agent;
}

/** Agents for both policies. */
export type PolicyAgents = Record<OutboundPolicy, OutboundAgents>;

/** Agents enforcing `policy`; keep-alive ones when `maxSockets` is given (destroy them with {@link destroyAgents}). */
export function createAgents(policy: OutboundPolicy, maxSockets?: number): OutboundAgents {
  const filter = { allowPrivateIPAddress: policy === 'any', allowMetaIPAddress: policy === 'any' };
  const pool = maxSockets === undefined ? { keepAlive: false } : { keepAlive: true, maxSockets };
  return { http: new RequestFilteringHttpAgent({ ...filter, ...pool }), https: new RequestFilteringHttpsAgent({ ...filter, ...pool }) };
}

/** Keep-alive agents for both policies (the webhook worker's). */
export function createPolicyAgents(maxSockets: number): PolicyAgents {
  return { public: createAgents('public', maxSockets), any: createAgents('any', maxSockets) };
}

/** Closes every socket of `agents`. */
export function destroyAgents(agents: PolicyAgents): void {
  for (const pair of Object.values(agents)) {
    pair.http.destroy();
    pair.https.destroy();
  }
}

let shared: PolicyAgents | undefined;

/** Agents without keep-alive, one pair per policy and process: for requests that bring no agents of their own. */
export function sharedAgents(policy: OutboundPolicy): OutboundAgents {
  shared ??= { public: createAgents('public'), any: createAgents('any') };
  return shared[policy];
}
