// Strict UTF-8 decoding of input bytes with the offset of the first bad byte. Pure, and free of
// the YAML package, so readers that only check text (stdin, --node files, report) stay light.
import { SyncpodError } from './errors';

/**
 * The text of UTF-8 bytes, or the byte offset (0-based) of the first byte that is not valid
 * UTF-8. A leading byte-order mark is dropped, as kubectl's reader does.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { badOffset: number } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { badOffset: firstInvalidUtf8(bytes) };
  }
}

function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let need: number;
    let min: number;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) [need, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [need, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= b.length) return i;
    let cp = c & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const cc = b[i + k]!;
      if ((cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return b.length;
}

/** The text of input bytes, or a one-line error naming the input and the first bad byte. */
export function inputText(bytes: Uint8Array | string, label: string): string {
  if (typeof bytes === 'string') return bytes;
  const decoded = decodeUtf8(bytes);
  if ('badOffset' in decoded)
    throw new SyncpodError(`${label}: byte ${decoded.badOffset}: invalid UTF-8 (manifests must be UTF-8 text)`);
  return decoded.text;
}
