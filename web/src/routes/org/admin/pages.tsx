export { AccountPage } from './account/AccountPage.js';
export { ApiKeysPage } from './api-keys/ApiKeysPage.js';
export { MembersPage } from './members/MembersPage.js';
export { NodePage } from './nodes/NodePage.js';
export { NodesPage } from './nodes/NodesPage.js';
