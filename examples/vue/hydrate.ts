// In the browser: the same component over the server's HTML. Importing signup.vue imports @svc/elements, which
// defines the elements, so they upgrade and render their shadow content as this module runs.
import { createSSRApp } from 'vue';
import Signup from './signup.vue';
import type { SignupProps } from './render.js';

const props = JSON.parse(document.getElementById('props')!.textContent!) as SignupProps;
createSSRApp(Signup, { ...props }).mount('#app');
