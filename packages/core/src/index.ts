export * from './capabilities.js';
export * from './form/index.js';
export * from './seal/index.js';
