// Two small rollup plugins that connect the script tag's builds: `chunkManifest` records, after the chunks build,
// which files each part needs (its own chunk, then every chunk it imports, transitively), and `chunksModule` gives
// that record to the loader's build as the module `svc:chunks`.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Adds this build's parts to the part -> files list in `manifest`; with `clean`, the first build empties `dir` and
 * starts the list afresh (no stale chunk is ever served).
 */
export function chunkManifest({ dir, manifest, clean = false }) {
  return {
    name: 'svc-chunk-manifest',
    buildStart() {
      if (!clean) return;
      rmSync(dir, { recursive: true, force: true });
      rmSync(manifest, { force: true });
    },
    writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (fileName, seen = new Set()) => {
        if (seen.has(fileName)) return seen;
        seen.add(fileName);
        for (const imported of byName.get(fileName).imports) closure(imported, seen);
        return seen;
      };
      const parts = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')) : {};
      Object.assign(
        parts,
        Object.fromEntries(chunks.filter((chunk) => chunk.isEntry).map((chunk) => [chunk.name, [...closure(chunk.fileName)]])),
      );
      mkdirSync(dirname(manifest), { recursive: true });
      writeFileSync(manifest, `${JSON.stringify(parts, null, 2)}\n`);
    },
  };
}

/** Resolves `import chunks from 'svc:chunks'` to the list `chunkManifest` wrote. */
export function chunksModule(manifest) {
  return {
    name: 'svc-chunks-module',
    resolveId: (id) => (id === 'svc:chunks' ? '\0svc:chunks' : null),
    load(id) {
      if (id !== '\0svc:chunks') return null;
      this.addWatchFile(manifest);
      return `export default ${readFileSync(manifest, 'utf8')};`;
    },
  };
}
