export { DeploymentPage } from './DeploymentPage.js';
export { DeploymentsPage } from './DeploymentsPage.js';
export { ServicePage } from './ServicePage.js';
