/** The settings pages, in one chunk the router loads on the first visit to any of them. */
export { ApiKeysSettings } from './api-keys/ApiKeysSettings.js';
export { AppsSettings } from './apps/AppsSettings.js';
export { FieldsSettings } from './fields/FieldsSettings.js';
export { GeneralSettings } from './general/GeneralSettings.js';
export { MembersSettings } from './members/MembersSettings.js';
export { StatusesSettings } from './statuses/StatusesSettings.js';
export { WebhookDetail } from './webhooks/WebhookDetail.js';
export { WebhooksSettings } from './webhooks/WebhooksSettings.js';
