/**
 * The API's types, generated from the committed `openapi.json` by
 * `npm run openapi` (one generated file, shared with the server's tests; the
 * contract test fails when it drifts from the served description).
 */
export type { components, operations, paths } from '../../../test/types/api.js';
