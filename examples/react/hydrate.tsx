// In the browser: the same component over the server's HTML. Importing signup.tsx imports @svc/elements, which
// defines the elements, so they upgrade and render their shadow content as this module runs.
import { hydrateRoot } from 'react-dom/client';
import { Signup, type SignupProps } from './signup.js';

const props = JSON.parse(document.getElementById('props')!.textContent!) as SignupProps;
hydrateRoot(document.getElementById('app')!, <Signup {...props} />);
