export { print, printValue, printKey, type PrintOptions } from './print.js';
