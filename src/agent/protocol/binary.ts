/**
 * Binary WebSocket messages for stream bytes, used once both sides said so
 * (`binaryFrames` in the hello and the welcome): the bytes as they are,
 * instead of base64 inside JSON (a third more bytes, and an encode, a JSON
 * parse and a decode per chunk). Layout: one byte for the kind, one for the
 * id's length, the id (ASCII), then the payload.
 */
export const BinaryKind = {
  /** Agent to server: a `stream.data` without a channel. */
  data: 1,
  /** Server to agent: a `stream.input`. */
  input: 2,
} as const;
export type BinaryKind = (typeof BinaryKind)[keyof typeof BinaryKind];

export interface BinaryFrame {
  kind: number;
  id: string;
  payload: Buffer;
}

export function encodeBinary(kind: BinaryKind, id: string, payload: Buffer): Buffer {
  const idBytes = Buffer.from(id, 'latin1');
  if (idBytes.length > 255) throw new Error(`stream id too long: ${id.length}`);
  const frame = Buffer.allocUnsafe(2 + idBytes.length + payload.length);
  frame[0] = kind;
  frame[1] = idBytes.length;
  idBytes.copy(frame, 2);
  payload.copy(frame, 2 + idBytes.length);
  return frame;
}

/** The frame, or null when it is too short to be one. */
export function decodeBinary(frame: Buffer): BinaryFrame | null {
  if (frame.length < 2) return null;
  const kind = frame[0] ?? 0;
  const idLength = frame[1] ?? 0;
  if (frame.length < 2 + idLength || idLength === 0) return null;
  return {
    kind,
    id: frame.toString('latin1', 2, 2 + idLength),
    payload: frame.subarray(2 + idLength),
  };
}

/** A binary message's bytes, whatever shape `ws` delivered them in. */
export function binaryOf(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return data;
}
