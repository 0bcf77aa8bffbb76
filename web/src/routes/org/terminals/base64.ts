/** `Uint8Array.fromBase64` where the browser has it (Chromium 140+, Firefox 133+), else undefined. */
const nativeDecode: unknown = Reflect.get(Uint8Array, 'fromBase64');

/** The bytes of a base64 text (an `output` frame's `data`). */
export function bytesOfBase64(text: string): Uint8Array {
  if (typeof nativeDecode === 'function') {
    const bytes: unknown = nativeDecode.call(Uint8Array, text);
    if (bytes instanceof Uint8Array) return bytes;
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

const encoder = new TextEncoder();

/** Base64 of bytes, in slices small enough for `String.fromCharCode`'s argument list. */
function base64OfBytes(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

/** Base64 of the UTF-8 of typed or pasted text (an `input` frame's `data`). */
export function base64OfText(text: string): string {
  return base64OfBytes(encoder.encode(text));
}

/**
 * Base64 of a string whose characters are bytes (xterm's `onBinary`: mouse
 * reports in X10 encoding, which are not UTF-8).
 */
export function base64OfBinary(binary: string): string {
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++)
    bytes[index] = binary.charCodeAt(index) & 0xff;
  return base64OfBytes(bytes);
}
