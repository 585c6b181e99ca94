import { describeError } from '../api/client';
import { h, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { requestEmailLink } from './auth-api';

/** How long "Resend" waits after a link was sent (a mail takes a moment; repeated sends look like spam). */
export const RESEND_AFTER_S = 30;

/**
 * "Email me a sign-in link": an email field, then the "Check your inbox at …"
 * state with a resend button that unlocks after a pause. `say` shows an error
 * under the form (the screen's one alert line).
 */
export function emailLinkPanel(serverUrl: string, next: string, say: (message: string) => void): HTMLElement {
  const panel = h('div', { class: 'sign-in-panel', 'data-testid': 'email-panel' });
  const showForm = (value = ''): void => {
    const email = h('input', {
      type: 'email',
      name: 'email',
      required: true,
      value,
      autocomplete: 'email',
      placeholder: 'you@example.com',
      'data-testid': 'email-address',
    });
    const send = h('button', { type: 'submit', class: 'primary', 'data-testid': 'email-send' }, 'Send sign-in link');
    const form = h('form', { class: 'sign-in-inline' }, h('label', {}, 'Email', email), send);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      send.disabled = true;
      say('');
      requestEmailLink(serverUrl, email.value.trim(), next).then(
        () => showSent(email.value.trim()),
        (err: unknown) => {
          send.disabled = false;
          say(`Could not send the link: ${describeError(err)}`);
        },
      );
    });
    replace(panel, form);
    queueMicrotask(() => email.focus());
  };
  const showSent = (address: string): void => {
    const resend = h('button', { type: 'button', 'data-testid': 'email-resend', disabled: true }, '');
    let left = RESEND_AFTER_S;
    const tick = (): void => {
      resend.textContent = left > 0 ? `Resend in ${left} s` : 'Resend the link';
      resend.disabled = left > 0;
      if (left-- > 0 && panel.isConnected) setTimeout(tick, 1000);
    };
    resend.addEventListener('click', () => {
      resend.disabled = true;
      say('');
      requestEmailLink(serverUrl, address, next).then(
        () => showSent(address),
        (err: unknown) => {
          resend.disabled = false;
          say(`Could not send the link: ${describeError(err)}`);
        },
      );
    });
    const heading = h('h2', { tabindex: '-1' }, 'Check your inbox');
    replace(
      panel,
      h(
        'div',
        { class: 'sign-in-sent', role: 'status', 'data-testid': 'email-sent' },
        h('span', { class: 'sign-in-sent-icon' }, icon('mail', { size: 20 })),
        heading,
        h('p', {}, 'We sent a sign-in link to ', h('strong', {}, address), '. It works once, for 15 minutes.'),
        h(
          'div',
          { class: 'sign-in-sent-actions' },
          resend,
          h(
            'button',
            { type: 'button', class: 'link', 'data-testid': 'email-change', onclick: () => showForm(address) },
            'Use another email',
          ),
        ),
      ),
    );
    tick();
    queueMicrotask(() => heading.focus());
  };
  showForm();
  return panel;
}
