export * from './capabilities.js';
export * from './seal/index.js';
