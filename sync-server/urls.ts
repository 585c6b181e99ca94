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
