import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { Icon } from '../ui/kit/icon';
import { useInterval } from '../ui/kit/hooks';
import { requestEmailLink } from './auth-api';

/** How long "Resend" waits after a link was sent (a mail takes a moment; repeated sends look like spam). */
export const RESEND_AFTER_S = 30;

/**
 * "Email me a sign-in link": an email field, then the "Check your inbox at …" state with a resend
 * button that unlocks after a pause. `say` shows an error under the form (the screen's one alert
 * line).
 */
export function EmailLinkPanel(props: { serverUrl: string; next: string; say: (message: string) => void }) {
  const [sent, setSent] = useState<{ address: string; at: number } | undefined>();
  const [draft, setDraft] = useState('');
  return (
    <div class="sign-in-panel" data-testid="email-panel">
      {sent ? (
        // Keyed by the send, so a resend starts the countdown again.
        <EmailSent
          key={sent.at}
          {...props}
          address={sent.address}
          resent={() => setSent({ address: sent.address, at: Date.now() })}
          change={() => {
            setDraft(sent.address);
            setSent(undefined);
          }}
        />
      ) : (
        <EmailForm {...props} initial={draft} sent={(address) => setSent({ address, at: Date.now() })} />
      )}
    </div>
  );
}

function EmailForm(props: {
  serverUrl: string;
  next: string;
  say: (message: string) => void;
  initial: string;
  sent: (address: string) => void;
}) {
  const [email, setEmail] = useState(props.initial);
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <form
      class="sign-in-inline"
      onSubmit={(event) => {
        event.preventDefault();
        const address = email.trim();
        setSending(true);
        props.say('');
        requestEmailLink(props.serverUrl, address, props.next).then(
          () => props.sent(address),
          (err: unknown) => {
            setSending(false);
            props.say(`Could not send the link: ${describeError(err)}`);
          },
        );
      }}
    >
      <label>
        Email
        <input
          ref={input}
          type="email"
          name="email"
          required
          value={email}
          autocomplete="email"
          placeholder="you@example.com"
          data-testid="email-address"
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
      </label>
      <button type="submit" class="primary" data-testid="email-send" disabled={sending}>
        Send sign-in link
      </button>
    </form>
  );
}

function EmailSent(props: {
  serverUrl: string;
  next: string;
  say: (message: string) => void;
  address: string;
  resent: () => void;
  change: () => void;
}) {
  const [left, setLeft] = useState(RESEND_AFTER_S);
  const [sending, setSending] = useState(false);
  // The countdown runs while this is shown, and stops when it goes (another email, another method, signed in).
  useInterval(() => setLeft((n) => n - 1), left > 0 ? 1000 : undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const resend = () => {
    setSending(true);
    props.say('');
    requestEmailLink(props.serverUrl, props.address, props.next).then(
      () => props.resent(),
      (err: unknown) => {
        setSending(false);
        props.say(`Could not send the link: ${describeError(err)}`);
      },
    );
  };
  return (
    // The heading takes focus, so it is read out; the countdown is no live region (no announcement a second).
    <div class="sign-in-sent" data-testid="email-sent">
      <span class="sign-in-sent-icon">
        <Icon name="mail" size={20} />
      </span>
      <h2 ref={heading} tabIndex={-1}>
        Check your inbox
      </h2>
      <p role="status">
        We sent a sign-in link to <strong>{props.address}</strong>. It works once, for 15 minutes.
      </p>
      <div class="sign-in-sent-actions">
        <button type="button" data-testid="email-resend" disabled={left > 0 || sending} onClick={resend}>
          {left > 0 ? `Resend in ${left} s` : 'Resend the link'}
        </button>
        <button type="button" class="link" data-testid="email-change" onClick={props.change}>
          Use another email
        </button>
      </div>
    </div>
  );
}
