import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { servingServerUrl } from '../session';
import { ssoStartUrl } from '../sign-in/auth-api';
import type { BrowserMethod } from '../sign-in/device-flow';
import { Icon } from '../ui/kit/icon';
import type { IconName } from '../ui/icons';

/** The parts of the sign-in screen (views/sign-in-screen.tsx holds them together). */

/** The server URL to suggest: this server when the app is served by one (/app/), else a local default. */
export function defaultServerUrl(): string {
  return servingServerUrl() ?? 'http://127.0.0.1:8080';
}

/** The "Server URL" field; `focus` moves the caret there when it appears (after "another server"). */
export function ServerField(props: { value: string; onInput: (value: string) => void; focus?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (props.focus) input.current?.focus();
  }, []);
  return (
    <label>
      Server URL
      <input
        ref={input}
        name="server"
        type="url"
        value={props.value}
        required
        autocomplete="url"
        spellcheck={false}
        data-testid="server-url"
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </label>
  );
}

const METHOD_ICONS: Record<BrowserMethod, IconName> = { sso: 'building', oidc: 'shield', email: 'mail' };

/** One full-width button per method the server offers; the one whose panel is open is expanded. */
export function MethodButton(props: {
  method: BrowserMethod;
  label: string;
  expanded: boolean;
  onChoose: (method: BrowserMethod) => void;
}) {
  return (
    <button
      type="button"
      class="sign-in-method"
      data-testid={`method-${props.method}`}
      aria-expanded={props.expanded}
      onClick={() => props.onChoose(props.method)}
    >
      <Icon name={METHOD_ICONS[props.method]} size={18} />
      <span>{props.label}</span>
    </button>
  );
}

/** SSO: the work email finds the organization, whose identity provider the server redirects to. */
export function SsoPanel({ serverUrl, next }: { serverUrl: string; next: string }) {
  const [email, setEmail] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <form
      class="sign-in-panel sign-in-inline"
      data-testid="sso-panel"
      onSubmit={(event) => {
        event.preventDefault();
        location.assign(ssoStartUrl(serverUrl, email.trim(), next));
      }}
    >
      <label>
        Work email
        <input
          ref={input}
          type="email"
          name="email"
          required
          value={email}
          autocomplete="email"
          placeholder="you@company.com"
          data-testid="sso-email"
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
      </label>
      <button type="submit" class="primary" data-testid="sso-continue">
        Continue
      </button>
    </form>
  );
}

/** Desktop: the method runs in the system browser while this window waits. */
export function BrowserWaiting({ cancel }: { cancel: () => void }) {
  return (
    <div class="sign-in-waiting" role="status" data-testid="browser-waiting">
      <Icon name="external-link" size={18} />
      <p>Continue in your browser. This window signs in once you approve it there.</p>
      <button type="button" class="link" data-testid="browser-cancel" onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}

/**
 * "Use an API token": collapsed unless the server offers nothing else (`tokenOnly`: then open,
 * without its toggle). `children` go before the token field (the server field, on the web app).
 */
export function TokenSection(props: {
  open: boolean;
  onOpen: (open: boolean) => void;
  tokenOnly: boolean;
  submitting: boolean;
  onSubmit: (token: string) => void;
  /** "Sign in to another server" (the web app on its own server), shown until used. */
  another?: () => void;
  children?: ComponentChildren;
}) {
  const [token, setToken] = useState('');
  const input = useRef<HTMLInputElement>(null);
  return (
    <details
      class={`sign-in-token${props.tokenOnly ? ' sign-in-token-only' : ''}`}
      data-testid="token-section"
      open={props.open}
      onToggle={(event) => {
        const open = (event.currentTarget as HTMLDetailsElement).open;
        if (open === props.open) return; // the screen opened it (nothing else on offer): leave the focus be
        props.onOpen(open);
        if (open) input.current?.focus();
      }}
    >
      <summary data-testid="use-token">
        <Icon name="key" size={16} />
        <span>Use an API token</span>
      </summary>
      <form
        class="sign-in-token-form"
        onSubmit={(event) => {
          event.preventDefault();
          props.onSubmit(token);
        }}
      >
        {props.children}
        <label>
          API token
          <input
            ref={input}
            name="token"
            type="password"
            required
            value={token}
            placeholder="API token"
            autocomplete="current-password"
            data-testid="token"
            onInput={(event) => setToken(event.currentTarget.value)}
          />
        </label>
        <button type="submit" class="primary" data-testid="sign-in" disabled={props.submitting}>
          Sign in with token
        </button>
        {props.another && (
          <button type="button" class="link sign-in-another" data-testid="another-server" onClick={props.another}>
            Sign in to another server
          </button>
        )}
      </form>
    </details>
  );
}
