export * from './resource-shape.js';
export * from './safe-values.js';
