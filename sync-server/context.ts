import type { Config } from './config';
import type { Db } from './store/db';
import type { Mailer } from './mail';
import type { DocHub } from './docs/hub';

/** Time source; tests inject one they can move forward. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Builds absolute URLs from the public base (known only after listen when the port is 0). */
export class Urls {
  constructor(private base: string) {}
  setBase(base: string): void {
    this.base = base.replace(/\/+$/, '');
  }
  get root(): string {
    return this.base;
  }
  /** URL of an API resource, e.g. api('/spaces/abc'). */
  api(path: string): string {
    return `${this.base}/v1${path}`;
  }
  /** URL of a place in the web app, e.g. app('/s/abc'). */
  app(path: string): string {
    return `${this.base}/app${path}`;
  }
}

/** Everything a route or service needs, built once per server. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  urls: Urls;
  mailer: Mailer;
  /** The live Yjs documents (collaboration core): read with withDoc, write with change. */
  hub: DocHub;
}
