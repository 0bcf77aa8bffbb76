import { stat } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { IMMUTABLE, REVALIDATE, WEB_APP_HEADERS } from './headers.js';

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
        reply.headers(WEB_APP_HEADERS);
        if (dist === null || !(await isFile(join(dist, 'index.html')))) return notBuilt(reply);
        const wildcard = request.params['*'];
        const file = await fileOf(dist, wildcard);
        // An asset of another build is missing, not a screen of the app.
        if (file === null && wildcard.startsWith('assets/')) return reply.callNotFound();
        if (file === null || file === 'index.html') {
          reply.header('cache-control', REVALIDATE);
          return reply.sendFile('index.html', { cacheControl: false });
        }
        reply.header('cache-control', file.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
        return reply.sendFile(file, { cacheControl: false });
      },
    );
  });
}
