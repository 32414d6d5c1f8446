export * from './format-date.js';
