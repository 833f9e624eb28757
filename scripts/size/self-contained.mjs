// A Rollup plugin that makes a lazily imported module a chunk of its own with nothing shared: the module is bundled
// on its own first (every import inlined), so the code-splitting build sees a module with no imports and never moves
// what it shares with the other chunks (zod, say) into a shared chunk that the other pages would then load too.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';

/** Bundles each module whose id matches `pattern` on its own, with Node resolution as the browser bundles use it. */
export function selfContained(pattern) {
  return {
    name: 'svc-self-contained',
    async load(id) {
      if (!pattern.test(id)) return null;
      const bundle = await rollup({
        input: id,
        plugins: [nodeResolve({ browser: true, exportConditions: ['browser', 'import', 'default'] })],
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
