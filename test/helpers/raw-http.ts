import { connect } from 'node:net';

/** What the server wrote back to a hand-made request. */
export interface RawHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `request` byte for byte over a fresh TCP connection to the server at
 * `url` (http://127.0.0.1:port) and reads until the server closes it: for what
 * no HTTP client sends (oversized request heads, broken request lines), which
 * Node's HTTP parser refuses before any route runs.
 */
export function rawHttp(url: string, request: string): Promise<RawHttpAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    // The server may reset the connection after answering; what it wrote is still read.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
      if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status, headers, body: rest.join('\r\n\r\n') });
    });
  });
}
