export * from './capabilities.js';
