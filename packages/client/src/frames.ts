/**
 * The JSON text frames of the live sockets, as the operations' descriptions
 * in `openapi.json` and the platform spec state them (WebSocket frames are
 * not schemas of the description, so these are written here, once).
 */
import type { Schema } from './types.js';

/** Bytes from the server: `data` is base64 of the raw bytes. */
export interface OutputFrame {
  type: 'output';
  data: string;
  /** Logs: which stream of the container wrote them. */
  stream?: 'stdout' | 'stderr';
  /** Service logs: the replica (`r1 abc123`). */
  replica?: string;
}

/** A failure of the agent, of opening the stream, or a refused client frame (`invalid_frame`). */
export interface ErrorFrame {
  type: 'error';
  code: string;
  message: string;
}

/** A worker terminal attached (`mode=terminal`), at its current size. */
export interface TerminalReady {
  type: 'ready';
  mode: 'terminal';
  session: string;
  cols: number;
  rows: number;
}

/** A service's shell opened in one replica. */
export interface ShellReady {
  type: 'ready';
  mode: 'shell';
  replica: string;
  cols: number;
  rows: number;
}

/** A worker's logs followed (`mode=logs`). */
export interface WorkerLogsReady {
  type: 'ready';
  mode: 'logs';
}

/** A service's logs followed, naming the replicas. */
export interface ServiceLogsReady {
  type: 'ready';
  mode: 'logs';
  replicas: string[];
}

/** A job run followed, with its status when the socket opened. */
export interface JobRunReady {
  type: 'ready';
  mode: 'logs';
  runId: string;
  status: Schema<'JobRun'>['status'];
}

/** The program of a terminal or shell ended. */
export interface ExitFrame {
  type: 'exit';
  exitCode: number | null;
  error?: string;
}

/** A log stream ended (the container, or the service removed). */
export interface LogsEndFrame {
  type: 'end';
  exitCode: number | null;
  error?: string;
  reason?: string;
}

/** A job run finished. */
export interface JobRunEndFrame {
  type: 'end';
  status: 'succeeded' | 'failed' | 'cancelled';
  exitCode: number | null;
  reason: string | null;
  outputBytes: number;
  outputTruncated: boolean;
}

/** An image build's step, sent at the start and again when it changes. */
export type BuildStepFrame = { type: 'step'; index: number } & Schema<'ImageBuildStep'>;

/** Image build log: what was appended. */
export interface BuildLogFrame {
  type: 'log';
  data: string;
}

export interface BuildEndFrame {
  type: 'end';
  status: 'succeeded' | 'failed';
  error: string | null;
}

/** Client to server, terminals and shells: keystrokes (base64 of the bytes). */
export interface InputFrame {
  type: 'input';
  data: string;
}

/** Client to server, terminals and shells: the window's size (1 to 1000). */
export interface ResizeFrame {
  type: 'resize';
  cols: number;
  rows: number;
}

export type ClientFrame = InputFrame | ResizeFrame;

export type TerminalFrame = OutputFrame | ExitFrame | ErrorFrame;
export type LogsFrame = OutputFrame | LogsEndFrame | ErrorFrame;
export type JobRunFrame = OutputFrame | JobRunEndFrame | ErrorFrame;
export type BuildFrame = BuildStepFrame | BuildLogFrame | BuildEndFrame | ErrorFrame;

/** Base64 of bytes, in browsers and Node alike. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

export function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The bytes of an `output` frame. */
export function outputBytes(frame: OutputFrame): Uint8Array {
  return decodeBase64(frame.data);
}

/** The text of an `output` frame (UTF-8; a character cut between frames needs a streaming TextDecoder). */
export function outputText(frame: OutputFrame): string {
  return new TextDecoder().decode(outputBytes(frame));
}
