export * from './capabilities.js';
export * from './form/index.js';
export { PARLEY_KEY_META } from './question-key.js';
export { PARLEY_RESUME_META } from './resume-token.js';
export * from './seal/index.js';
