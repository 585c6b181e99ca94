/**
 * A minimal browser over fetch for sign-in flows through real HTTP: one
 * cookie jar per origin (paths ignored: the flows here never reuse a cookie
 * name on two paths), redirects followed by hand so each hop can be checked,
 * and the HTML forms of server-rendered pages filled in and posted.
 */
export class HttpBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  /** The cookie `name` this browser holds for `origin`. */
  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(new URL(origin).origin)?.get(name);
  }

  /** Sets (or with undefined removes) a cookie for `origin`, as a test arranging a state. */
  setCookie(origin: string, name: string, value: string | undefined): void {
    const o = new URL(origin).origin;
    const cookies = this.jar.get(o) ?? new Map<string, string>();
    if (value === undefined) cookies.delete(name);
    else cookies.set(name, value);
    this.jar.set(o, cookies);
  }

  /** One request (no redirect followed) with this browser's cookies; stores the cookies it sets. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const headers = new Headers(init.headers);
    const cookies = this.jar.get(origin);
    if (cookies && cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.store(origin, line);
    return res;
  }

  /** Follows redirects from `url` until an answer that is not one, or until `stop(next)` says to stop before `next`. */
  async follow(
    url: string,
    init: RequestInit = {},
    stop: (next: string) => boolean = () => false,
  ): Promise<{ url: string; response: Response }> {
    let current = url;
    let res = await this.request(current, init);
    for (let hops = 0; hops < 20; hops++) {
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: current, response: res };
      const next = new URL(location, current).href;
      if (stop(next)) return { url: next, response: res };
      current = next;
      res = await this.request(current);
    }
    throw new Error(`more than 20 redirects from ${url}`);
  }

  /** Posts the first form of `html` (found at `pageUrl`) with its hidden fields plus `fields`. */
  async submitForm(
    pageUrl: string,
    html: string,
    fields: Record<string, string> = {},
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
    if (!form) throw new Error(`no form on ${pageUrl}: ${html.slice(0, 300)}`);
    const action = unescapeHtml(/\baction="([^"]*)"/i.exec(form[1]!)?.[1] ?? pageUrl);
    const body = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
      const attrs = input[1]!;
      if (!/type="hidden"/i.test(attrs)) continue;
      const name = /\bname="([^"]*)"/i.exec(attrs)?.[1];
      if (name) body.set(unescapeHtml(name), unescapeHtml(/\bvalue="([^"]*)"/i.exec(attrs)?.[1] ?? ''));
    }
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return this.request(new URL(action, pageUrl).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
  }

  private store(origin: string, line: string): void {
    const [pair, ...attributes] = line.split(';');
    const eq = pair!.indexOf('=');
    if (eq < 0) return;
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    const removed = attributes.some((a) => {
      const [k, v = ''] = a.trim().split('=');
      if (k!.toLowerCase() === 'max-age') return Number(v) <= 0;
      if (k!.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
      return false;
    });
    this.setCookie(origin, name, removed || value === '' ? undefined : value);
  }
}

/** Undoes the HTML escapes of attribute values. */
export function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
