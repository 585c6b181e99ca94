import { listServerRefs } from 'isomorphic-git';
import type { Connection } from './connection';

/**
 * Where `ref` is on the remote now (one GET of info/refs), or null when the branch does not exist
 * or the repository is empty. `forPush` asks the receive-pack service, which hosts guard with
 * write access: a push learns early that the credentials cannot write.
 */
export async function remoteHead(conn: Connection, ref: string, forPush = false): Promise<string | null> {
  const refs = await listServerRefs({
    http: conn.http,
    url: conn.url,
    headers: conn.headers(),
    forPush,
    // Version 1 lists every ref in the one GET; version 2 would need a POST after it.
    protocolVersion: 1,
  });
  return refs.find((r) => r.ref === ref)?.oid ?? null;
}
