export * from './document.js';
export * from './media-type.js';
export * from './pagination.js';
export * from './request-body.js';
export * from './resource.js';
