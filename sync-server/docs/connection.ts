import type { RawData, WebSocket } from 'ws';
import { lostAccess, type SyncAccess } from './access';
import { CloseCode, type Refusal } from '../../shared/sync-contract';
import type { DocHub, DocLease, DocPeer, HubLogger } from './hub';
import type { LiveDoc } from './live-doc';
import { encodeSyncStep1, encodeSyncStep2, parseClientMessage, ProtocolError } from './protocol';
import { decodeUpdateStrict, updateChanges } from './update-check';

/**
 * A slow or stalled reader must not make the server buffer without limit
 * (memory exhaustion by a client that never reads): past this many queued
 * bytes the socket is dropped and the client resyncs when it reconnects.
 */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

let nextId = 0;

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/**
 * One y-websocket connection to one document. The message listener is
 * attached in the constructor, before anything is awaited, and frames are
 * queued until the document is loaded, so nothing a fast client sends right
 * after the handshake is lost. Frames are handled strictly in order; a
 * refused write pauses the queue while the role is checked again.
 */
export class SyncConnection implements DocPeer {
  readonly id = `c${++nextId}`;
  private lease: DocLease | undefined;
  private readonly inbox: Uint8Array[] = [];
  private paused = false;
  /** No more frames are accepted and nothing is sent (the socket closed, or we closed it). */
  private closed = false;
  /** The document lease was given back. */
  private released = false;
  private refusal: Refusal | undefined;
  /** Answered pings; a peer that misses one heartbeat is terminated (half-open TCP connections). */
  alive = true;
  /** Awareness entries over the limits were already logged for this connection (one line per socket, not per frame). */
  private awarenessDropLogged = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly hub: DocHub,
    /** Who is connected to what; the access sweep re-checks it (see access-sweep.ts). */
    readonly access: SyncAccess,
    private readonly log: HubLogger,
  ) {
    this.refusal = access.initial;
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    // Frames that arrived before the client hung up are still handled (an edit sent right before closing the app counts).
    ws.on('close', () => this.shutdown());
    // Socket errors (resets, invalid frames, payload too large) are followed by 'close'; without a listener they would crash the process.
    ws.on('error', () => undefined);
    ws.on('pong', () => {
      this.alive = true;
    });
    hub.open(access.target.docName).then(
      (lease) => this.start(lease),
      (err) => {
        log.error({ err, doc: access.target.docName }, 'sync: could not open a document');
        this.close(CloseCode.tryAgainLater, 'document unavailable');
      },
    );
  }

  private get live(): LiveDoc | undefined {
    return this.lease?.live;
  }

  private start(lease: DocLease): void {
    this.lease = lease;
    if (!this.closed) {
      lease.live.peers.add(this);
      // Like the y-websocket server: ask for what the client has that we lack, and show who is here.
      this.send(encodeSyncStep1(lease.doc));
      const presence = lease.live.awarenessFrame();
      if (presence) this.send(presence);
    }
    this.pump();
  }

  /** Sends one frame if the socket is still open. */
  send(frame: Uint8Array): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.log.warn({ connection: this.id }, 'sync: dropping a connection that does not read');
      this.inbox.length = 0;
      this.ws.terminate();
      return this.shutdown();
    }
    this.ws.send(frame, { binary: true });
  }

  /** Closes with a code the client understands (see close-codes.ts); frames not handled yet are dropped. */
  close(code: number, reason: string): void {
    this.inbox.length = 0;
    if (!this.closed) this.ws.close(code, reason);
    this.shutdown();
  }

  /** Heartbeat: terminate if the last ping got no pong, then ping again. */
  heartbeat(): void {
    if (!this.alive) {
      this.inbox.length = 0;
      this.ws.terminate();
      return this.shutdown();
    }
    this.alive = false;
    this.ws.ping();
  }

  /** Called by the hub before committing this connection's writes. */
  async authorizeWrite(): Promise<boolean> {
    this.refusal = await this.access.recheck();
    if (!this.refusal) return true;
    this.close(this.refusal.code, this.refusal.reason);
    return false;
  }

  /**
   * The result of re-checking this connection's access (the access sweep, after
   * roles, grants or tokens changed): closes it when the caller lost access
   * (4401 token revoked, 4404 no longer visible), so a removed member stops
   * receiving live edits. A caller who may still read stays connected; a write
   * refusal is said when they write.
   */
  accessChecked(refusal: Refusal | undefined): void {
    if (refusal && lostAccess(refusal)) this.close(refusal.code, refusal.reason);
  }

  /** Stops receiving and sending; the lease is given back once the frames already received are handled. */
  private shutdown(): void {
    if (!this.closed) {
      this.closed = true;
      this.lease?.live.detach(this);
    }
    this.releaseIfDone();
  }

  private releaseIfDone(): void {
    if (!this.closed || this.released || !this.lease || this.paused || this.inbox.length > 0) return;
    this.released = true;
    this.lease.release();
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    if (!isBinary) return this.close(CloseCode.malformed, 'text frames are not part of the protocol');
    this.inbox.push(toBytes(data));
    this.pump();
  }

  private pump(): void {
    while (!this.paused && this.live && this.inbox.length > 0) {
      const frame = this.inbox.shift()!;
      try {
        this.handle(frame, this.live);
      } catch (err) {
        if (!(err instanceof ProtocolError))
          this.log.error({ err, connection: this.id }, 'sync: unexpected error handling a frame');
        // Say what was wrong, within the 123-byte limit of a close reason.
        this.close(CloseCode.malformed, err instanceof ProtocolError ? err.message.slice(0, 120) : 'malformed message');
      }
    }
    this.releaseIfDone();
  }

  private handle(frame: Uint8Array, live: LiveDoc): void {
    const message = parseClientMessage(frame);
    switch (message.type) {
      case 'sync-step-1':
        // Never show a server-side change before it is committed.
        live.whenLocalCommitted(() => {
          if (!live.broken) this.send(encodeSyncStep2(live.doc, message.stateVector));
        });
        return;
      case 'sync-step-2':
      case 'update':
        return this.write(live, message.update);
      case 'awareness': {
        // A closed connection's presence would never be removed again.
        const refused = this.closed ? 0 : live.applyAwareness(this, message.entries);
        // Over the limits: dropped, not refused with a close (a stock client would stop reconnecting for good).
        if ((message.oversized > 0 || refused > 0) && !this.awarenessDropLogged) {
          this.awarenessDropLogged = true;
          this.log.warn(
            { connection: this.id, doc: live.name, oversized: message.oversized, overClientLimit: refused },
            'sync: dropped awareness entries over the limits',
          );
        }
        return;
      }
      case 'query-awareness': {
        const presence = live.awarenessFrame();
        if (presence) this.send(presence);
        return;
      }
    }
  }

  private write(live: LiveDoc, update: Uint8Array): void {
    const decoded = decodeUpdateStrict(update);
    // Re-sent content (a reconnect's SyncStep2, a local cache replay) changes nothing: no log row, and no reason to refuse a reader.
    if (!updateChanges(live.doc, decoded)) return;
    if (!this.refusal) return this.hub.submit(live, this, update, this.origin());
    // The cached decision says no, but roles and locks change while a socket is open: ask again before refusing.
    this.paused = true;
    this.access
      .recheck()
      .then(
        (refusal) => {
          this.refusal = refusal;
          if (refusal) this.close(refusal.code, refusal.reason);
          // Submitted even if the client hung up meanwhile: the update was legitimately sent.
          else if (!live.broken) this.hub.submit(live, this, update, this.origin());
        },
        (err) => {
          this.log.error({ err, connection: this.id }, 'sync: could not check write access');
          this.close(CloseCode.tryAgainLater, 'access check failed');
        },
      )
      .finally(() => {
        this.paused = false;
        this.pump();
      });
  }

  private origin() {
    return { kind: 'socket' as const, userId: this.access.principal.userId, connectionId: this.id };
  }
}
