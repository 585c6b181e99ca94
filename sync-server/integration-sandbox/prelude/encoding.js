/* global host, DOMException */
// TextEncoder / TextDecoder (UTF-8 only, as in Workers) and atob / btoa, done by the host's own
// implementations through the bridge.

/** The bytes of a BufferSource as an ArrayBuffer of exactly those bytes (what the bridge takes). */
function toArrayBuffer(source) {
  if (source instanceof ArrayBuffer) return source;
  if (ArrayBuffer.isView(source)) return source.buffer.slice(source.byteOffset, source.byteOffset + source.byteLength);
  throw new TypeError('The argument must be an ArrayBuffer or an ArrayBufferView');
}

class TextEncoder {
  get encoding() {
    return 'utf-8';
  }
  encode(input = '') {
    return new Uint8Array(host.utf8Encode(JSON.stringify(String(input))));
  }
  encodeInto(input, dest) {
    const bytes = this.encode(input);
    // Whole characters only: step back over continuation bytes past the end.
    let written = Math.min(bytes.length, dest.length);
    if (written < bytes.length) while (written > 0 && (bytes[written] & 0xc0) === 0x80) written--;
    dest.set(bytes.subarray(0, written));
    const read = new TextDecoder().decode(bytes.subarray(0, written)).length;
    return { read, written };
  }
}

class TextDecoder {
  constructor(label = 'utf-8', options = {}) {
    const l = String(label).trim().toLowerCase();
    if (l !== 'utf-8' && l !== 'utf8' && l !== 'unicode-1-1-utf-8')
      throw new RangeError(`The "${label}" encoding is not supported`);
    this.fatal = Boolean(options.fatal);
    this.ignoreBOM = Boolean(options.ignoreBOM);
  }
  get encoding() {
    return 'utf-8';
  }
  decode(input) {
    if (input === undefined) return '';
    return JSON.parse(host.utf8Decode(toArrayBuffer(input), this.fatal, this.ignoreBOM));
  }
}

globalThis.TextEncoder = TextEncoder;
globalThis.TextDecoder = TextDecoder;
/** The host's InvalidCharacterError as the DOMException the standard names. */
function base64(fn, data) {
  try {
    return fn(String(data));
  } catch (err) {
    throw new DOMException(String(err.message).replace(/^InvalidCharacterError: /, ''), 'InvalidCharacterError');
  }
}
globalThis.btoa = (data) => base64((s) => host.btoa(JSON.stringify(s)), data);
globalThis.atob = (data) => base64((s) => JSON.parse(host.atob(s)), data);
