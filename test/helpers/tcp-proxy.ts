import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 that a test controls: in front of PostgreSQL it is
 * a relay the test can cut ("the database goes away"); in front of several
 * server processes it is a load balancer (round robin over the backends that
 * accept a connection, like any TCP load balancer; no sticky sessions).
 */
export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private open = true;
  private next = 0;
  private server: net.Server | undefined;
  port = 0;

  constructor(private backends: { host: string; port: number }[]) {}

  static async start(backends: { host: string; port: number }[]): Promise<TcpProxy> {
    const proxy = new TcpProxy(backends);
    proxy.server = net.createServer((client) => proxy.accept(client));
    await new Promise<void>((resolve) => proxy.server!.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.server.address() as net.AddressInfo).port;
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Drops every connection and refuses new ones until restore(). */
  cut(): void {
    this.open = false;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.open = true;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private accept(client: net.Socket): void {
    if (!this.open) return void client.destroy();
    this.track(client);
    client.pause();
    this.connectUpstream(client, 0);
  }

  /** Tries the backends in round-robin order; a backend that refuses (a dead process) is skipped. */
  private connectUpstream(client: net.Socket, tried: number): void {
    if (tried >= this.backends.length || client.destroyed) return void client.destroy();
    const target = this.backends[this.next++ % this.backends.length]!;
    const upstream = net.connect(target.port, target.host);
    const onError = () => {
      upstream.destroy();
      this.connectUpstream(client, tried + 1);
    };
    upstream.once('error', onError);
    upstream.once('connect', () => {
      upstream.off('error', onError);
      this.track(upstream);
      client.pipe(upstream).pipe(client);
      client.resume();
      // Either side closing closes the other: a killed backend drops its clients, as a real balancer does.
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
  }

  private track(s: net.Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => s.destroy());
  }
}
