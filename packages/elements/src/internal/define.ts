// Custom element registration that survives what real pages do: two copies of the bundle on one page (a script
// tag and an npm import), and server-side rendering, where there is no `customElements` at all.

/**
 * Defines `tag` as `constructor` unless it is already defined; a no-op where there is no custom element registry
 * (Node). A second copy of the element is ignored with one console warning, since the first copy already runs.
 */
export function define(tag: string, constructor: CustomElementConstructor): void {
  const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
  if (!registry) return;
  const existing = registry.get(tag);
  if (existing === constructor) return;
  if (existing) {
    console.warn(`[svc] <${tag}> is already defined by another copy of @svc/elements; that copy is used.`);
    return;
  }
  registry.define(tag, constructor);
}
