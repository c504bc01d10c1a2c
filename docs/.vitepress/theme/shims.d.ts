// What the theme imports that TypeScript cannot read by itself: Vue single-file components (compiled
// by VitePress) and stylesheets.

declare module '*.vue' {
  import type { DefineComponent } from 'vue';

  const component: DefineComponent;
  export default component;
}

declare module '*.css';
