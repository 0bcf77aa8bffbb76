/**
 * The API's types, from the client package (`@sparrow/client`), which owns
 * the file `npm run openapi` generates from the committed `openapi.json`
 * (the contract test fails when it drifts from the served description).
 */
export type { components, operations, paths } from '@sparrow/client';
