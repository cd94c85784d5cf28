export { createDemoHostTools, demoToolSettings } from './demo-tools.js';
