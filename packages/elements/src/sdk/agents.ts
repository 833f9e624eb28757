// The chunk the script tag's loader imports for <svc-agents>: the element's class, undefined (the loader defines it),
// and what `window.Svc` gains with it.
export { SvcAgents, SvcAgents as default } from '../agents/agents.component.js';
export { setConfigDefaults } from '../internal/config.js';
