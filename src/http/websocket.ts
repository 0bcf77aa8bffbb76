import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The plain-HTTP answer of a WebSocket route (declared with `wsHandler`, so
 * that it stays in the API description): 426 with the Error body.
 */
export async function upgradeRequired(_request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(426)
    .header('upgrade', 'websocket')
    .send({
      error: {
        code: 'upgrade_required',
        message: 'This endpoint is a WebSocket: connect with an upgrade request',
      },
    });
}
