// The terminal screens, loaded on first visit (xterm.js comes with them, never on the first screen).
export { ServiceShellPage } from './ServiceShellPage.js';
export { WorkerTerminalPage } from './WorkerTerminalPage.js';
