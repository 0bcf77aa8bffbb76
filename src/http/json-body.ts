import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './errors.js';

/** Arrays and objects may nest this deep in a JSON body; no route needs a tenth of it. */
export const MAX_JSON_DEPTH = 64;

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const U = 0x75;

export type JsonTextProblem = 'nul' | 'too_deep';

/**
 * One pass over JSON text, before it is parsed: the first NUL character (raw,
 * or escaped as `\u0000` in a key or a string) or bracket nesting deeper
 * than `maxDepth`, whichever comes first. Brackets inside strings do not
 * count. Malformed text is left to the parser.
 */
export function scanJsonText(text: string, maxDepth: number): JsonTextProblem | null {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0) return 'nul';
    if (inString) {
      if (char === QUOTE) inString = false;
      else if (char === BACKSLASH) {
        if (text.charCodeAt(index + 1) === U && text.startsWith('0000', index + 2)) return 'nul';
        index++;
      }
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_ARRAY || char === OPEN_OBJECT) {
      depth++;
      if (depth > maxDepth) return 'too_deep';
    } else if (char === CLOSE_ARRAY || char === CLOSE_OBJECT) depth--;
  }
  return null;
}

const checkedBodies = new WeakSet<FastifyRequest>();
/** The errors this parser refused a body with, for routes that answer them in their own shape. */
const bodyErrors = new WeakSet<object>();

/**
 * Whether an error is this parser's refusal of a JSON body (malformed, too
 * deep, a NUL character): `/mcp` answers those as JSON-RPC parse errors.
 */
export function isJsonBodyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && bodyErrors.has(error);
}

function refused(error: Error): Error {
  bodyErrors.add(error);
  return error;
}

/** Whether the request's body was parsed here, and so already checked for NUL characters. */
export function isCheckedJsonBody(request: FastifyRequest): boolean {
  return checkedBodies.has(request);
}

/**
 * JSON bodies are parsed by fastify's own parser (which refuses `__proto__`
 * and `constructor.prototype` keys), after one scan of the text that refuses
 * NUL characters (PostgreSQL stores none, in text or jsonb) and nesting
 * deeper than MAX_JSON_DEPTH (a body of brackets would otherwise cost far
 * more memory as objects than as text). An empty body counts as no body: a
 * DELETE sent with `Content-Type: application/json` and nothing else is not
 * an error, and a route that needs a body still says so.
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
    const problem = scanJsonText(body, MAX_JSON_DEPTH);
    if (problem === 'nul') {
      done(
        refused(
          badRequest(
            'nul_character',
            'The JSON body contains the NUL character (\\u0000), which cannot be stored',
          ),
        ),
        undefined,
      );
      return;
    }
    if (problem === 'too_deep') {
      done(
        refused(
          badRequest('json_too_deep', `JSON bodies nest at most ${MAX_JSON_DEPTH} levels`, {
            maxDepth: MAX_JSON_DEPTH,
          }),
        ),
        undefined,
      );
      return;
    }
    checkedBodies.add(request);
    parse(request, body, (error, value) => {
      if (error !== null) done(refused(error), undefined);
      else done(null, value);
    });
  });
}
