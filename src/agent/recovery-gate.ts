import type { StreamHandlers, UnaryHandlers } from './handlers.js';
import type { Runtime } from './runtime.js';

type Handler<P, R> = (params: P) => Promise<R>;

/**
 * The handlers of terminals and background commands, made to wait for the
 * recovery of what they are about (see Recovery): one container's, or all of
 * it where a request names a command rather than a container. A request
 * that comes during the recovery is answered late rather than wrongly (a
 * recovered command "not found", a session listed without its state).
 */
export function afterRecovery(
  runtime: Runtime,
  unary: UnaryHandlers,
  stream: StreamHandlers,
): { unary: UnaryHandlers; stream: StreamHandlers } {
  const forContainer =
    <P extends { containerId?: string }, R>(handle: Handler<P, R>): Handler<P, R> =>
    async (params) => {
      await runtime.recovered(params.containerId);
      return handle(params);
    };
  const forAll =
    <P, R>(handle: Handler<P, R>): Handler<P, R> =>
    async (params) => {
      await runtime.recovered();
      return handle(params);
    };
  return {
    unary: {
      ...unary,
      'terminal.create': forContainer(unary['terminal.create']),
      'terminal.list': forContainer(unary['terminal.list']),
      'terminal.kill': forContainer(unary['terminal.kill']),
      'command.start': forContainer(unary['command.start']),
      'command.list': forContainer(unary['command.list']),
      'command.get': forAll(unary['command.get']),
      'command.cancel': forAll(unary['command.cancel']),
    },
    stream: {
      ...stream,
      'terminal.attach': forContainer(stream['terminal.attach']),
      'command.follow': forAll(stream['command.follow']),
    },
  };
}
