// Safe outbound requests: one client, its policies and the registration check.
export { createAgents, createPolicyAgents, destroyAgents, sharedAgents, type OutboundAgents, type PolicyAgents } from './agents.js';
export { checkDestination, hostOf, REGISTRATION_LOOKUP_TIMEOUT_MS, type Refusal } from './check.js';
export { outboundRequest, type OutboundError, type OutboundOptions, type OutboundResult } from './client.js';
export { describeAddress, isPublicAddress, policyOf, refusalMessage, refusedRange, type OutboundPolicy } from './policy.js';
