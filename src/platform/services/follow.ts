import type WebSocket from 'ws';
import type { PeerStream } from '../../agent/peer.js';
import type { AppContext } from '../../module.js';
import type { AgentRegistry } from '../nodes/registry.js';
import { FrameSender, onClientFrames } from '../terminals/relay.js';
import { fromAgentError } from '../workers/agent-call.js';
import { LinePrefixer, replicaLabel } from './replica-lines.js';
import { liveReplicas, type ReplicaRow } from './replicas.js';

/** New replicas (a deploy, a scale-up) are looked for this often. */
const SYNC_MS = 2000;

interface Attachment {
  label: string;
  stream: PeerStream | null;
  /** Ended, or could not be opened: not attached again. */
  over: boolean;
}

/**
 * Follows the logs of every live replica of a service over one socket:
 * `ready` with the replicas attached, then `output` frames (base64 data with
 * each line prefixed `[r{n} {id}] `, and `stream` and `replica` fields).
 * Replicas that appear later (a deploy) are attached as they come, with
 * their whole log; one that ends is let go. `end` when the service is
 * removed. Client frames are ignored (bad ones answered with an error).
 */
export function followService(
  ctx: AppContext,
  registry: AgentRegistry,
  socket: WebSocket,
  serviceId: string,
  tail: number | undefined,
): void {
  const attached = new Map<string, Attachment>();
  let closed = false;
  let syncing = false;
  const streams = () => [...attached.values()].flatMap((a) => (a.stream ? [a.stream] : []));
  const sender = new FrameSender(socket, {
    pause: () => {
      for (const stream of streams()) stream.pause();
    },
    resume: () => {
      for (const stream of streams()) stream.resume();
    },
  });
  onClientFrames(socket, sender, () => {});

  const note = (label: string, text: string) => {
    const data = Buffer.from(`[${label}] -- ${text}\n`).toString('base64');
    sender.output(data, 'stderr', label);
  };

  async function attach(replica: ReplicaRow, label: string, since: number | undefined) {
    const attachment: Attachment = { label, stream: null, over: false };
    attached.set(replica.id, attachment);
    const prefixers = { stdout: new LinePrefixer(label), stderr: new LinePrefixer(label) };
    const prefixed = (bytes: Buffer, channel?: string) =>
      (channel === 'stderr' ? prefixers.stderr : prefixers.stdout).apply(bytes);
    try {
      const peer = await registry.reach(replica.node_id);
      const { stream } = await peer.openStream(
        'logs.follow',
        { containerId: replica.container_name, ...(since === undefined ? {} : { tail: since }) },
        {
          onData: (bytes, channel) =>
            sender.output(prefixed(bytes, channel).toString('base64'), channel, label),
          onEnd: () => {
            attachment.over = true;
            attachment.stream = null;
          },
        },
      );
      if (closed || attachment.over) stream.close();
      else attachment.stream = stream;
    } catch (error) {
      attachment.over = true;
      const failure = fromAgentError(error);
      note(
        label,
        `logs unavailable: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
    }
  }

  async function sync(first: boolean): Promise<void> {
    if (closed || syncing) return;
    syncing = true;
    try {
      const service = await ctx.db
        .selectFrom('services')
        .select('id')
        .where('id', '=', serviceId)
        .executeTakeFirst();
      if (closed) return;
      if (service === undefined) {
        // Removed while the socket opened: `ready` (nothing attached) still comes first.
        if (first) sender.ready({ mode: 'logs', replicas: [] });
        sender.frame({ type: 'end', exitCode: null, reason: 'The service was removed' });
        stop();
        sender.close(1000, 'end');
        return;
      }
      const replicas = await liveReplicas(ctx.db, serviceId);
      if (closed) return;
      const fresh = replicas
        .map((replica, index) => ({ replica, label: replicaLabel(replica, index) }))
        .filter(({ replica }) => !attached.has(replica.id));
      if (first) {
        sender.ready({ mode: 'logs', replicas: fresh.map(({ label }) => label) });
      }
      // A replica found after the start is new to the client: its whole log.
      await Promise.all(
        fresh.map(({ replica, label }) => attach(replica, label, first ? tail : undefined)),
      );
    } catch (error) {
      ctx.log.warn({ err: error, serviceId }, 'could not follow the logs of a service');
      if (first) sender.fail(error);
    } finally {
      syncing = false;
    }
  }

  const timer = setInterval(() => void sync(false), SYNC_MS);
  timer.unref();
  function stop() {
    closed = true;
    clearInterval(timer);
    for (const stream of streams()) stream.close();
  }
  socket.on('close', stop);
  void sync(true);
}
