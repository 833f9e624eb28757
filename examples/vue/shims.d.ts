// What a Vue project's env.d.ts says (Vite's template writes it): a .vue file's default export is a component.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
