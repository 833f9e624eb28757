// On the server: the page's HTML with Vue's renderToString, and the props the browser hydrates it with.
import { createSSRApp } from 'vue';
import { renderToString } from 'vue/server-renderer';
import Signup from './signup.vue';

/** The props of signup.vue. */
export interface SignupProps {
  service: string;
  publishableKey: string;
  flow: string;
  decisionToken: string;
}

/** The whole sign-up page for one visitor; `script` is the URL of the bundle of hydrate.ts. */
export async function renderSignupPage(props: SignupProps, script: string): Promise<string> {
  const app = await renderToString(createSSRApp(Signup, { ...props }));
  // The props travel as data, not script (a strict script-src allows it), so the browser renders the same tree.
  const data = JSON.stringify(props).replaceAll('<', '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sign up</title>
  <link rel="stylesheet" href="/style.css">
  <script type="module" src="${script}"></script>
</head>
<body>
  <main id="app">${app}</main>
  <script type="application/json" id="props">${data}</script>
</body>
</html>`;
}
