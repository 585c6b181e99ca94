/* global host, toArrayBuffer, DOMException */
// crypto.getRandomValues / randomUUID, and the part of crypto.subtle integrations use: digest
// (SHA-1/256/384/512) and HMAC keys (importKey 'raw', sign, verify). The host computes.

const HASHES = new Set(['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']);

function hashName(algorithm) {
  const name = String(typeof algorithm === 'object' && algorithm !== null ? algorithm.name : algorithm).toUpperCase();
  if (!HASHES.has(name)) throw new DOMException(`Unrecognized algorithm name: ${name}`, 'NotSupportedError');
  return name;
}

class CryptoKey {
  constructor(secret, algorithm, extractable, usages) {
    Object.defineProperty(this, '_secret', { value: secret });
    this.type = 'secret';
    this.algorithm = algorithm;
    this.extractable = extractable;
    this.usages = usages;
  }
}

function hmacKey(key, usage) {
  if (!(key instanceof CryptoKey) || key.algorithm.name !== 'HMAC')
    throw new DOMException('The key is not an HMAC key', 'InvalidAccessError');
  if (!key.usages.includes(usage)) throw new DOMException(`The key does not allow ${usage}`, 'InvalidAccessError');
  return key;
}

const subtle = {
  async digest(algorithm, data) {
    return host.digest(hashName(algorithm), toArrayBuffer(data));
  },
  async importKey(format, keyData, algorithm, extractable, usages) {
    if (format !== 'raw') throw new DOMException(`Key format ${format} is not supported`, 'NotSupportedError');
    const name = String(algorithm && algorithm.name).toUpperCase();
    if (name !== 'HMAC') throw new DOMException(`Algorithm ${name} is not supported`, 'NotSupportedError');
    const hash = hashName(algorithm.hash);
    const secret = toArrayBuffer(keyData).slice(0);
    return new CryptoKey(
      secret,
      { name: 'HMAC', hash: { name: hash }, length: secret.byteLength * 8 },
      Boolean(extractable),
      [...usages],
    );
  },
  async exportKey(format, key) {
    if (format !== 'raw' || !key.extractable)
      throw new DOMException('The key cannot be exported', 'InvalidAccessError');
    return key._secret.slice(0);
  },
  async sign(algorithm, key, data) {
    hmacKey(key, 'sign');
    return host.hmac(key.algorithm.hash.name, key._secret, toArrayBuffer(data));
  },
  async verify(algorithm, key, signature, data) {
    hmacKey(key, 'verify');
    const expected = new Uint8Array(host.hmac(key.algorithm.hash.name, key._secret, toArrayBuffer(data)));
    const given = new Uint8Array(toArrayBuffer(signature));
    if (expected.length !== given.length) return false;
    let diff = 0;
    for (let i = 0; i < expected.length; i++) diff |= expected[i] ^ given[i];
    return diff === 0;
  },
};

globalThis.CryptoKey = CryptoKey;
globalThis.crypto = {
  subtle,
  getRandomValues(array) {
    if (
      !ArrayBuffer.isView(array) ||
      array instanceof Float32Array ||
      array instanceof Float64Array ||
      array instanceof DataView
    )
      throw new DOMException('The data must be an integer-type TypedArray', 'TypeMismatchError');
    if (array.byteLength > 65536) throw new DOMException('The quota of 65536 bytes is exceeded', 'QuotaExceededError');
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(
      new Uint8Array(host.randomBytes(array.byteLength)),
    );
    return array;
  },
  randomUUID() {
    return host.randomUUID();
  },
};
