// Storybook 10 for the svc elements: web components on Vite, offline, no telemetry. Stories load the real elements
// from the workspace sources; decisions run against the real hosted decision page (served by Storybook) and the
// consent field against the reference server when STORYBOOK_SVC_BASE_URL is set, else against static render answers
// (see stories/README.md).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/web-components-vite';
import type { Plugin } from 'vite';
import { writeStoryStatics } from './statics.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const statics = writeStoryStatics(root);

/**
 * In dev, Storybook's static server does not map a folder to its index.html; the element asks for
 * `/svc/decisions/{token}/embed` (no slash, no file name), so this serves those folders' pages the way a static host
 * does.
 */
function decisionPages(): Plugin {
  return {
    name: 'svc-story-decision-pages',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
        if (!/^\/svc\/decisions\/[A-Za-z0-9_-]+(?:\/embed)?\/?$/.test(path)) return next();
        const file = join(statics, path, 'index.html');
        if (!existsSync(file) || !statSync(file).isFile()) return next();
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.setHeader('cache-control', 'no-store');
        res.end(readFileSync(file));
      });
    },
  };
}

const config: StorybookConfig = {
  framework: { name: '@storybook/web-components-vite', options: {} },
  stories: ['../stories/**/*.stories.ts'],
  addons: ['@storybook/addon-a11y', '@storybook/addon-docs'],
  docs: { defaultName: 'Docs' },
  staticDirs: [{ from: join(statics, 'svc'), to: '/svc' }],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  async viteFinal(viteConfig) {
    const { mergeConfig } = await import('vite');
    return mergeConfig(viteConfig, {
      // The workspace packages' TypeScript sources (their `source` export condition): no prior build needed, and the
      // elements' legacy decorators are transformed by Vite with the packages' own tsconfig.
      resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
      plugins: [decisionPages()],
      build: { chunkSizeWarningLimit: 2000 },
      logLevel: 'warn',
    });
  },
};

export default config;
