// The page script of the decision stories (bundled by .storybook/statics.ts): the story-local participant API first,
// which also points the page's data block at the story's origin, then the service's real hosted decision page,
// whose entry defines `<svc-decision-page>`. ES modules run in import order, so the element reads the prepared data.
import './participant-api.js';

// Exported, not only imported: the server package declares itself free of side effects, so a bare import of its
// entry would be dropped from the bundle.
export { DecisionPage } from '../../packages/server/src/hosted/pages/app/decision-page.js';
