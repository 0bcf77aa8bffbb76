import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance, RouteOptions } from 'fastify';
import Type from 'typebox';
import type { Config } from '../config.js';
import { withNamedComponents, withSharedErrorResponses } from './openapi-components.js';
import { ERROR_SCHEMA_ID, ErrorBody, ErrorRef } from './schemas.js';

export const API_VERSION = '0.1.0';

/** Routes registered under this prefix repeat the content API; the description lists them once. */
export const CONTENT_MIRROR_PREFIX = '/api';

/** Marks routes of the `/api` mirror of the content API so the description lists them once. */
export function hideFromDescription(route: RouteOptions): void {
  route.schema = { ...route.schema, hide: true };
}

/**
 * Every route answers errors with the Error schema; every non-public route
 * takes a bearer token or the session cookie. Routes only state the rest.
 */
export function describeRouteDefaults(route: RouteOptions): void {
  const schema = { ...route.schema };
  const response = { ...(schema.response as Record<string, unknown> | undefined) };
  response['4xx'] ??= ErrorRef;
  response['5xx'] ??= ErrorRef;
  schema.response = response;
  if (route.config?.access === 'public') {
    schema.security = [];
  }
  route.schema = schema;
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown>>;
}

/** Paths outside `/api` that are not content paths: served at the root only. */
const ROOT_ONLY = ['/openapi.json', '/mcp'];

/** Content paths are served at both roots; say so on each of them. */
function addContentServers(document: OpenApiDocument, publicUrl: string): OpenApiDocument {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (path.startsWith(`${CONTENT_MIRROR_PREFIX}/`) || ROOT_ONLY.includes(path)) continue;
    item.servers = [
      { url: publicUrl, description: 'The API on its own port' },
      { url: `${publicUrl}${CONTENT_MIRROR_PREFIX}`, description: 'The public address' },
    ];
  }
  return document;
}

const DESCRIPTION = `Content workspaces and a development platform in one service.

Content-API paths (those not starting with \`/api/\`) are served at two roots: \`/\` and \`/api\`.
Platform-API paths are served under \`/api\` only, and the agent tool server at \`/mcp\` (root only).

Every error response is \`{"error": {"code", "message", "details"}}\` with a stable \`code\`.
Path identifiers are UUIDs: 8-4-4-4-12 hex digits, version digit 1 to 8, variant digit 8, 9, a or b;
the nil and max UUIDs are accepted too. Anything else is a 400 \`validation_failed\`.

Service URLs are not API paths: a request or WebSocket upgrade whose \`Host\` is a service's \`url\`
(\`svc-{serviceId}.{SERVICE_DOMAIN}\`, any port) or its verified custom domain is proxied to a running
replica of the service, whatever its path. The proxy's own answers use the Error body:
404 \`service_not_found\`, 503 \`service_unavailable\` (no running replica, or its node is offline),
502 \`service_unreachable\`, 403 \`service_access_denied\`. It sets \`X-Forwarded-For\`, \`-Proto\` and \`-Host\`.`;

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  // One Error schema, referenced by every error response (it lists every code).
  app.addSchema({ ...ErrorBody, $id: ERROR_SCHEMA_ID });
  await app.register(swagger, {
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === 'string' ? json.$id : `def-${index}`,
    },
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Sparrow API', version: API_VERSION, description: DESCRIPTION },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'A session token, workspace API key, app token (spa_) or org key (spk_).',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'session',
            description:
              'The session cookie that sign-in sets, for browsers. A request by cookie that changes state (any ' +
              "method but GET, HEAD and OPTIONS) or opens a WebSocket must come from the service's own origin " +
              '(`PUBLIC_URL`): its `Origin`, or without one its `Sec-Fetch-Site` (`same-origin` or `none`), else 403 ' +
              '`origin_not_allowed`. A request with neither header (not a browser) passes.',
          },
        },
      },
      security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    },
    transformObject: (documentObject) => {
      const document = 'openapiObject' in documentObject ? documentObject.openapiObject : {};
      const named = withSharedErrorResponses(
        withNamedComponents(document as OpenApiDocument & Record<string, unknown>),
      );
      return addContentServers(named, config.publicUrl) as never;
    },
  });
}

/** `/openapi.json` at both roots, and the interactive reference at `/api/docs`. */
export async function registerDocumentationRoutes(app: FastifyInstance): Promise<void> {
  for (const url of ['/openapi.json', `${CONTENT_MIRROR_PREFIX}/openapi.json`]) {
    app.get(url, {
      config: { access: 'public' },
      schema: {
        hide: true,
        response: {
          200: Type.Object({ openapi: Type.String() }, { additionalProperties: true }),
        },
      },
      handler: async () => app.swagger(),
    });
  }
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    await docs.register(scalar, {
      routePrefix: `${CONTENT_MIRROR_PREFIX}/docs`,
      configuration: { url: `${CONTENT_MIRROR_PREFIX}/openapi.json`, title: 'Sparrow API' },
    });
  });
}
