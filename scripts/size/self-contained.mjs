// A Rollup plugin that makes a lazily imported module a chunk of its own with nothing shared: the module is bundled
// on its own first (every import inlined), so the code-splitting build sees a module with no imports and never moves
// what it shares with the other chunks (zod, say) into a shared chunk that the other pages would then load too.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';

/**
 * Bundles each module whose id matches `pattern` on its own, with Node resolution as the browser bundles use it;
 * modules matching `lazy` are left to the outer build as lazy chunks.
 */
export function selfContained(pattern, { lazy } = {}) {
  return {
    name: 'svc-self-contained',
    async load(id) {
      if (!pattern.test(id)) return null;
      const bundle = await rollup({
        input: id,
        plugins: [leaveLazy(lazy), nodeResolve({ browser: true, exportConditions: ['browser', 'import', 'default'] })],
        onwarn: () => {},
      });
      try {
        const { output } = await bundle.generate({ format: 'es', inlineDynamicImports: true });
        for (const file of bundle.watchFiles) this.addWatchFile(file);
        return { code: output[0].code, map: null };
      } finally {
        await bundle.close();
      }
    },
  };
}

// A module matching `lazy` stays an import by absolute path: the outer build makes it a chunk of its own, fetched only
// when that code path runs (pkijs for time-stamp tokens, which the console never checks).
function leaveLazy(lazy) {
  return {
    name: 'svc-leave-lazy',
    async resolveId(source, importer, options) {
      if (!lazy || !importer) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && lazy.test(resolved.id) ? { id: resolved.id, external: 'absolute' } : null;
    },
  };
}
