export { WorkerPage } from './WorkerPage.js';
