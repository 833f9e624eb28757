// On the server: the page's HTML with React's renderToString, and the props the browser hydrates it with.
import { renderToString } from 'react-dom/server';
import { Signup, type SignupProps } from './signup.js';

/** The whole sign-up page for one visitor; `script` is the URL of the bundle of hydrate.tsx. */
export function renderSignupPage(props: SignupProps, script: string): string {
  const app = renderToString(<Signup {...props} />);
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
