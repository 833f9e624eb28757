// Every story: autodocs read the generated custom-elements.json, and the accessibility addon runs axe on each story
// and fails it on any violation (`a11y.test: 'error'`).
import { setCustomElementsManifest, type Preview } from '@storybook/web-components-vite';
import manifest from '../packages/elements/custom-elements.json';

setCustomElementsManifest(manifest);

const preview: Preview = {
  tags: ['autodocs'],
  parameters: {
    a11y: {
      test: 'error',
      options: { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } },
    },
    controls: { expanded: true },
    layout: 'padded',
  },
};

export default preview;
