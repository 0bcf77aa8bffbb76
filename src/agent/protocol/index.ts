/** The agent protocol: what the server and a node agent say to each other. */
export * from './codec.js';
export * from './messages.js';
export * from './methods.js';
export * from './schemas.js';
