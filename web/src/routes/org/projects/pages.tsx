export { ProjectPage } from './ProjectPage.js';
export { ProjectsPage } from './ProjectsPage.js';
