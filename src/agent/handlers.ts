import { toErrorPayload } from './errors.js';
import { followLogs } from './logs.js';
import { connectPort } from './port-connect.js';
import type { Channel, ErrorPayload } from './protocol/messages.js';
import type { ParamsOf, ResultOf, StreamMethodName, UnaryMethodName } from './protocol/methods.js';
import type { Runtime } from './runtime.js';

/** Where a stream's output goes (the connection turns it into `stream.data` frames). */
export interface StreamSink {
  data(bytes: Buffer, channel?: Channel): void;
  end(end: { exitCode?: number | null; error?: ErrorPayload }): void;
  /** The input's target is backed up: ask the server to stop sending `stream.input` for now. */
  pauseInput?(): void;
  resumeInput?(): void;
}

/** What the server may do to an open stream. */
export interface StreamControl {
  input(bytes: Buffer): void;
  resize(cols: number, rows: number): Promise<void>;
  /** Detach: stop sending. A terminal's program, a command, keep running. */
  close(): void;
  /** Flow control: the connection is backed up. */
  pause(): void;
  resume(): void;
}

/** A streaming method's answer, and how to start the stream once it has been sent. */
export interface OpenedStream<R> {
  result: R;
  start(sink: StreamSink): StreamControl;
}

export type UnaryHandlers = {
  [M in UnaryMethodName]: (params: ParamsOf<M>) => Promise<ResultOf<M>>;
};
export type StreamHandlers = {
  [M in StreamMethodName]: (params: ParamsOf<M>) => Promise<OpenedStream<ResultOf<M>>>;
};

const noInput = {
  input() {},
  async resize() {},
};

/** Buffers what arrives before the stream starts (or while it is paused), so nothing is lost. */
class PendingSink implements StreamSink {
  private target: StreamSink | null = null;
  private readonly queue: ((sink: StreamSink) => void)[] = [];

  data(bytes: Buffer, channel?: Channel): void {
    if (this.target !== null) this.target.data(bytes, channel);
    else this.queue.push((sink) => sink.data(bytes, channel));
  }

  end(end: { exitCode?: number | null; error?: ErrorPayload }): void {
    if (this.target !== null) this.target.end(end);
    else this.queue.push((sink) => sink.end(end));
  }

  connect(sink: StreamSink): void {
    this.drainTo(sink);
    this.target = sink;
  }

  /** Delivers what is queued, and goes on queueing. */
  drainTo(sink: StreamSink): void {
    for (const deliver of this.queue.splice(0)) deliver(sink);
  }
}

export function unaryHandlers(runtime: Runtime): UnaryHandlers {
  return {
    'node.info': () => runtime.nodeInfo(),
    'inventory.list': async () => ({ containers: await runtime.inventory() }),
    'inventory.reconcile': (params) => runtime.reconcile(params.workers),
    'container.create': (params) => runtime.createContainer(params),
    'container.start': (params) =>
      runtime.startContainer(params.containerId, params.repositories, params.gitEnv),
    'container.stop': (params) => runtime.stopContainer(params.containerId, params.timeoutSeconds),
    'container.remove': async (params) => ({
      removed: await runtime.removeContainer(params.containerId, params.force ?? false),
    }),
    'container.inspect': (params) => runtime.inspect(params.containerId),
    'container.probe': (params) => runtime.probe(params.containerId, params),
    'container.logs': async (params) => ({
      text: await runtime.logs(params.containerId, params.tail),
    }),
    'container.stats': (params) => runtime.stats(params.containerId),
    'container.ports': async (params) => ({ ports: await runtime.ports(params.containerId) }),
    'container.gitStatus': (params) => runtime.gitStatus(params.containerId, params.path),
    'exec.run': (params) =>
      runtime.exec(params.containerId, {
        ...params,
        stdin: params.stdin === undefined ? undefined : Buffer.from(params.stdin, 'base64'),
      }),
    'image.commit': (params) => runtime.commitImage(params),
    'image.remove': async (params) => ({ removed: await runtime.removeImage(params.reference) }),
    'command.start': (params) => runtime.commands.start(params),
    'command.get': (params) => runtime.commands.get(params.commandId),
    'command.list': async (params) => ({ commands: runtime.commands.list(params.containerId) }),
    'command.cancel': (params) => runtime.commands.cancel(params.commandId),
    'terminal.create': (params) => runtime.terminals.create(params),
    'terminal.list': async (params) => ({
      terminals: await runtime.terminals.listFresh(params.containerId),
    }),
    'terminal.kill': async (params) => {
      await runtime.terminals.kill(params.containerId, params.name);
      return { killed: true };
    },
  };
}

export function streamHandlers(runtime: Runtime): StreamHandlers {
  return {
    'terminal.attach': async (params) => {
      const session = await runtime.terminals.find(params.containerId, params.name);
      const size =
        params.cols !== undefined && params.rows !== undefined
          ? { cols: params.cols, rows: params.rows }
          : undefined;
      const info = session.info();
      return {
        result: { ...info, ...size, attachments: info.attachments + 1 },
        start: (sink) =>
          session.open(
            {
              data: (bytes) => sink.data(bytes),
              end: (exitCode) => sink.end({ exitCode }),
            },
            size,
          ),
      };
    },
    'command.follow': async (params) => {
      const info = await runtime.commands.get(params.commandId);
      const { stdout: _stdout, stderr: _stderr, ...result } = info;
      return {
        result,
        start: (sink) => {
          // The command runs on whatever happens here; while paused, its
          // output waits in this queue instead of going out.
          const pending = new PendingSink();
          let paused = false;
          const following = runtime.commands.follow(params.commandId, {
            onData: (chunk) => (paused ? pending : sink).data(chunk.data, chunk.channel),
            onEnd: (ended) => (paused ? pending : sink).end({ exitCode: ended.exitCode }),
          });
          return {
            ...noInput,
            close: following.stop,
            pause() {
              paused = true;
            },
            resume() {
              paused = false;
              pending.drainTo(sink);
            },
          };
        },
      };
    },
    'port.connect': (params) => connectPort(runtime.docker, params.containerId, params.port),
    'logs.follow': async (params) => {
      // Checks the container exists, so a bad id is refused rather than ended.
      await runtime.inspect(params.containerId);
      const pending = new PendingSink();
      // Not awaited: Podman sends the response head of a followed log only with
      // the first output, and a quiet container would hold the answer back.
      const following = followLogs(
        runtime.docker,
        params.containerId,
        params.tail,
        (frame) => pending.data(frame.data, frame.channel),
        (error) => pending.end(error === undefined ? {} : { error: toErrorPayload(error) }),
      ).catch((error: unknown) => {
        pending.end({ error: toErrorPayload(error) });
        return null;
      });
      const control = (act: (follower: Awaited<ReturnType<typeof followLogs>>) => void) => {
        void following.then((follower) => follower && act(follower));
      };
      return {
        result: { containerId: params.containerId },
        start: (sink) => {
          pending.connect(sink);
          return {
            ...noInput,
            close: () => control((follower) => follower.stop()),
            pause: () => control((follower) => follower.pause()),
            resume: () => control((follower) => follower.resume()),
          };
        },
      };
    },
  };
}
