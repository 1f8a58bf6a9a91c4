export * from './resource-shape.js';
