import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * An authoritative DNS server on 127.0.0.1 (UDP, a free port) that
 * answers TXT queries from a table the test fills: what an organization's
 * DNS host would publish. A name listed in `failing` answers SERVFAIL (a
 * broken resolver); any other name answers NXDOMAIN.
 */
export class TestDnsServer {
  /** TXT records by name (lower-case): each record is its character-strings. */
  readonly txt = new Map<string, string[][]>();
  readonly failing = new Set<string>();
  /** Every question asked, in order (name and type). */
  readonly asked: { name: string; type: number }[] = [];
  private readonly server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question?.name.toLowerCase() ?? '';
      this.asked.push({ name, type: question?.type ?? 0 });
      if (this.failing.has(name)) response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (!this.txt.has(name)) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (question?.type === Packet.TYPE.TXT)
        for (const data of this.txt.get(name)!)
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, data }));
      send(response);
    },
  });
  private port = 0;

  /** `127.0.0.1:<port>`, as FOLIO_DNS_SERVERS takes it. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    // UDP only: the answers here are short, so a resolver never falls back to TCP.
    const bound = await this.server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    this.port = bound.udp!.port;
  }

  /** Publishes (replaces) the TXT records of `name`. */
  publish(name: string, ...records: string[][]): void {
    this.txt.set(name.toLowerCase(), records);
  }

  async close(): Promise<void> {
    await this.server.close();
  }
}
