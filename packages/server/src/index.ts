/**
 * The svc reference server: HTTP API, hosted decision pages and storage, for development, demos and tests.
 * @module @svc/server
 */
export { startServer, sandboxSeeders } from './server.js';
export type { StartServerOptions, RunningServer } from './server.js';
export type { Sandbox } from './platform/account/sandbox.js';
export { createApp } from './app.js';
export type { Clock, TestClock } from './infra/clock.js';
export { createTestClock, systemClock } from './infra/clock.js';
export type { RateLimitOptions, Window as RateLimitWindow } from './infra/limits/policies.js';
export { fromRateLimiterFlexible, memoryStore } from './infra/limits/limiter.js';
export type { Limiter, LimiterStore, Outcome as LimiterOutcome, Policy as RateLimitPolicy } from './infra/limits/limiter.js';
