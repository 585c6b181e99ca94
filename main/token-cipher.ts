import type { SafeStorage } from 'electron';

/**
 * How account tokens are kept at rest. `safeStorage` uses the OS keychain (macOS Keychain,
 * Windows DPAPI, libsecret/kwallet on Linux); `none` stores them as given.
 */
export interface TokenCipher {
  readonly kind: 'safeStorage' | 'none';
  /** Returns the text to store. */
  encrypt(token: string): string;
  /** Returns the token; throws when the stored text cannot be decrypted (e.g. keychain changed). */
  decrypt(stored: string): string;
}

/** Stores tokens unencrypted: used when the OS offers no encryption (and by tests). */
export const plainTokenCipher: TokenCipher = {
  kind: 'none',
  encrypt: (token) => token,
  decrypt: (stored) => stored,
};

/** What the main process learned about token encryption, for the log. */
export interface TokenCipherChoice {
  cipher: TokenCipher;
  /** Why this cipher was chosen, in words for the log. */
  note: string;
}

/**
 * Encrypts tokens with Electron's safeStorage when the OS supports it. Call after `app` is
 * ready (safeStorage reports "unavailable" before that on some platforms).
 */
export function chooseTokenCipher(
  safeStorage: Pick<
    SafeStorage,
    'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
  >,
  platform: NodeJS.Platform,
): TokenCipherChoice {
  if (!safeStorage.isEncryptionAvailable()) {
    return { cipher: plainTokenCipher, note: 'safeStorage unavailable: account tokens are stored unencrypted' };
  }
  const cipher: TokenCipher = {
    kind: 'safeStorage',
    encrypt: (token) => safeStorage.encryptString(token).toString('base64'),
    decrypt: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
  };
  // On Linux without a secret service Electron falls back to a hard-coded key: better than
  // plain text against casual reading, no protection against someone who knows that key.
  const weak = platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text';
  return {
    cipher,
    note: weak
      ? 'safeStorage with the basic_text backend (no OS keyring found): weak encryption'
      : 'account tokens encrypted with safeStorage',
  };
}
