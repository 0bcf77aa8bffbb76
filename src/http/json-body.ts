import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies are parsed by fastify's own parser (which refuses `__proto__`
 * and `constructor.prototype` keys), except that an empty body counts as no
 * body: a DELETE sent with `Content-Type: application/json` and nothing else
 * is not an error, and a route that needs a body still says so.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = raw.toString();
    if (body.trim() === '') {
      done(null, undefined);
      return;
    }
    parse(request, body, done);
  });
}
