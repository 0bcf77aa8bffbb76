import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  contentSecurityPolicy,
  IMMUTABLE,
  NONCE_PLACEHOLDER,
  REVALIDATE,
  WEB_APP_HEADERS,
} from './headers.js';

/** Where the web app is served; its client-side routes live below it. */
export const WEB_APP_PREFIX = '/app/';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sparrow: the web app is not built</title></head>
<body><h1>The web app is not built</h1>
<p>This server found no built web app (<code>web/dist</code>). Run <code>npm run build</code>,
then start the server again. The API works meanwhile; its reference is at
<a href="/api/docs">/api/docs</a>.</p></body></html>
`;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The file a path under `/app/` names inside the build, or null (a client-side route). */
async function fileOf(dist: string, wildcard: string): Promise<string | null> {
  if (wildcard === '' || wildcard.includes('\0')) return null;
  const relative = normalize(wildcard);
  if (isAbsolute(relative) || relative.startsWith('..')) return null;
  return (await isFile(join(dist, relative))) ? relative : null;
}

function notBuilt(reply: FastifyReply): FastifyReply {
  return reply.code(503).header('cache-control', 'no-store').type('text/html').send(NOT_BUILT_PAGE);
}

/**
 * Serves the built web app under `/app/`: a file of the build when the path
 * names one (hashed assets cached for a year), else `index.html`, so a deep
 * link into the app loads it and its router shows the screen. Compressed;
 * a strict Content-Security-Policy and no framing. Without a build, a page
 * that says so (503), not an error.
 */
export async function registerWebApp(app: FastifyInstance, dist: string | null): Promise<void> {
  await app.register(async (web) => {
    // Only these routes: the API's answers (and its event streams) stay as they are.
    await web.register(compress, { global: false });
    if (dist !== null) await web.register(fastifyStatic, { root: dist, serve: false });

    web.get('/app', { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) =>
      reply.redirect(WEB_APP_PREFIX, 301),
    );
    web.get<{ Params: { '*': string } }>(
      `${WEB_APP_PREFIX}*`,
      {
        config: { access: 'public' },
        // Links into the app carry the app's own query parameters.
        schema: { hide: true, querystring: { type: 'object', additionalProperties: true } },
        compress: {},
      },
      async (request, reply) => {
        const nonce = randomBytes(16).toString('base64');
        reply.headers(WEB_APP_HEADERS);
        reply.header('content-security-policy', contentSecurityPolicy(nonce));
        if (dist === null || !(await isFile(join(dist, 'index.html')))) return notBuilt(reply);
        const wildcard = request.params['*'];
        const file = await fileOf(dist, wildcard);
        // An asset of another build is missing, not a screen of the app.
        if (file === null && wildcard.startsWith('assets/')) return reply.callNotFound();
        if (file === null || file === 'index.html') {
          // Read at each answer (a few hundred bytes), so a new build is served at once.
          const page = await readFile(join(dist, 'index.html'), 'utf8');
          reply.header('cache-control', REVALIDATE).type('text/html; charset=utf-8');
          return page.replaceAll(NONCE_PLACEHOLDER, nonce);
        }
        reply.header('cache-control', file.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
        return reply.sendFile(file, { cacheControl: false });
      },
    );
  });
}

/** API addresses a browser may open by navigation, and the screen of the app that answers them. */
const BROWSER_PAGES: ReadonlyMap<string, string> = new Map([
  ['/oauth/authorize', `${WEB_APP_PREFIX}oauth/authorize`],
  ['/api/oauth/authorize', `${WEB_APP_PREFIX}oauth/authorize`],
]);

/**
 * A browser that opens `GET /oauth/authorize` (the address an OAuth client
 * sends the person to) asks for HTML: it is sent to the app's consent screen
 * with the same query, which signs the person in first when needed. An API
 * client (no `text/html` in its `Accept`) keeps the JSON answer. Installed
 * before the auth hook, so a browser without a session is redirected, not 401.
 */
export function installBrowserPages(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    const queryAt = request.url.indexOf('?');
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const page = BROWSER_PAGES.get(path);
    if (page === undefined || !(request.headers.accept ?? '').includes('text/html')) return;
    reply.header('cache-control', 'no-store');
    return reply.redirect(queryAt === -1 ? page : `${page}${request.url.slice(queryAt)}`, 302);
  });
}
