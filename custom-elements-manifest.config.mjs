// @custom-elements-manifest/analyzer configuration: reads the elements' JSDoc (@summary, @slot, @fires, @csspart,
// @cssprop) and writes packages/elements/custom-elements.json, which the package's `customElements` field names and
// Storybook's autodocs read. Regenerate with `pnpm --filter @svc/elements cem`, which then writes the React and Vue
// declarations from it (scripts/element-types.mjs); the unit tests packages/elements/src/custom-elements.test.ts and
// scripts/element-types.test.ts fail when the checked-in manifest or declarations drift.

/** Tag names come from the package's own `define('svc-x', Class)` helper, which the analyzer does not know. */
function svcDefine() {
  const tags = new Map(); // class name -> { tag, module }
  return {
    name: 'svc-define',
    analyzePhase({ ts, node, moduleDoc }) {
      if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'define') return;
      const [tag, klass] = node.arguments;
      if (tag && klass && ts.isStringLiteral(tag) && ts.isIdentifier(klass))
        tags.set(klass.text, { tag: tag.text, module: moduleDoc.path });
    },
    packageLinkPhase({ customElementsManifest }) {
      // Modules in path order, whatever order the file system lists them in: the checked-in manifest is compared whole.
      customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (const mod of customElementsManifest.modules) {
        // Locals the analyzer picks up from inside methods are not part of the module's API.
        const exported = new Set((mod.exports ?? []).map((e) => e.declaration?.name ?? e.name));
        mod.declarations = (mod.declarations ?? []).filter((d) => d.kind !== 'variable' || exported.has(d.name));
        for (const declaration of mod.declarations) {
          // Private members are implementation, not API: autodocs would list them beside the real ones.
          if (declaration.members) declaration.members = declaration.members.filter((m) => m.privacy !== 'private');
          const defined = tags.get(declaration.name);
          if (declaration.kind !== 'class' || !defined) continue;
          declaration.tagName = defined.tag;
          declaration.customElement = true;
          const definer = customElementsManifest.modules.find((m) => m.path === defined.module) ?? mod;
          definer.exports = [
            ...(definer.exports ?? []),
            {
              kind: 'custom-element-definition',
              name: defined.tag,
              declaration: { name: declaration.name, module: mod.path },
            },
          ];
        }
      }
    },
  };
}

// Run from packages/elements (its `cem` script does), so module paths in the manifest are the package's own (`src/...`).
export default {
  globs: [
    'src/**/*.component.ts',
    'src/internal/person-list.ts',
    'src/{decision,consent-field,inbox,records,data-requests,delegations,credentials,vouches,data-offers,connections,agreements,receipts,provider,applications,webhooks,agents,policies,evidence,governance}/*.ts',
  ],
  exclude: [
    '**/*.test.ts',
    '**/*.styles.ts',
    '**/redirect-result.ts',
    '**/appearance.ts',
    '**/strings.ts',
    '**/render-data.ts',
    '**/form-registry.ts',
    '**/consent-field-error.ts',
  ],
  outdir: '.',
  litelement: true,
  dev: false,
  packagejson: false,
  plugins: [svcDefine()],
};
