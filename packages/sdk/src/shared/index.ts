export * from './resource-shape.js';
export * from './safe-values.js';
export * from './us-states.js';
