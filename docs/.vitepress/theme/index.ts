// The site's theme: VitePress's default theme, plus the exercise code box.

import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import Exercise from './Exercise.vue';
import './style.css';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('Exercise', Exercise);
  },
} satisfies Theme;
