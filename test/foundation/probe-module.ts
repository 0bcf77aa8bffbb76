import Type from 'typebox';
import { Strict, Uuid } from '../../src/http/schemas.js';
import type { AppModule } from '../../src/module.js';

/** Test-only routes that exercise the HTTP core: UUID params, faults, undeclared access. */
export const probeModule: AppModule = {
  name: 'probe',
  contentRoutes(router) {
    router.get('/probe/things/:thingId', {
      config: { access: 'public' },
      schema: {
        params: Strict({ thingId: Uuid }),
        response: { 200: Type.Object({ thingId: Type.String() }) },
      },
      handler: async (request) => ({ thingId: request.params.thingId }),
    });
    router.post('/probe/echo', {
      config: { access: 'public' },
      schema: {
        body: Strict({
          name: Type.String({ maxLength: 10 }),
          count: Type.Optional(Type.Integer()),
        }),
        querystring: Strict({ flag: Type.Optional(Type.Boolean()) }),
        response: {
          200: Type.Object({ name: Type.String(), count: Type.Optional(Type.Integer()) }),
        },
      },
      handler: async (request) => request.body,
    });
    router.get('/probe/fault', {
      config: { access: 'public' },
      schema: { response: { 200: Type.Object({}) } },
      handler: async () => {
        throw new Error('simulated fault with a secret detail');
      },
    });
    router.get('/probe/undeclared', {
      schema: { response: { 200: Type.Object({}) } },
      handler: async () => ({}),
    });
    router.get('/probe/who', {
      config: { access: 'authenticated' },
      schema: { response: { 200: Type.Object({ kind: Type.String(), label: Type.String() }) } },
      handler: async (request) => ({
        kind: request.principal?.kind ?? 'none',
        label: request.principal?.label ?? '',
      }),
    });
  },
};
