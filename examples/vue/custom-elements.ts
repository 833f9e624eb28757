// The one compiler option Vue needs for the elements: give it to whatever compiles your .vue files, on the server
// and in the browser alike (with Vite: `vue({ template: { compilerOptions: { isCustomElement } } })`).
export const isCustomElement = (tag: string) => tag.startsWith('svc-');
