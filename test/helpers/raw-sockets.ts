import WebSocket from 'ws';

/**
 * Plain WebSocket connections for what a stock client never does: hand-made
 * (or broken) frames, and upgrades the server must refuse.
 */

/** A raw ws socket (to send hand-made frames); resolves when open. */
export function rawSocket(
  url: string,
): Promise<{ ws: WebSocket; closed: Promise<{ code: number; reason: string }>; frames: Uint8Array[] }> {
  const ws = new WebSocket(url);
  const frames: Uint8Array[] = [];
  ws.on('message', (data) => frames.push(new Uint8Array(data as Buffer)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, closed, frames }));
    ws.once('error', reject);
  });
}

/** The HTTP status an upgrade attempt is answered with (101 when it succeeds). */
export function upgradeStatus(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: '' });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}
