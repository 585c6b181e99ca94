import { h } from '../ui/dom';
import type { Session } from '../session';
import type { OrgNavigation } from './navigation';
import { createOrganization } from './org-api';
import { act } from './widgets';

/** Creates an organization; the caller becomes its admin and lands on its home. */
export function newOrgScreen(session: Session, nav: OrgNavigation): HTMLElement {
  const title = h('input', {
    type: 'text',
    required: true,
    minlength: 2,
    maxlength: 255,
    placeholder: 'Acme Inc.',
    'data-testid': 'new-org-title',
    autocomplete: 'organization',
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'primary', 'data-testid': 'new-org-create' },
    'Create organization',
  );
  const form = h(
    'form',
    { class: 'org-form card' },
    h('h1', { class: 'org-heading', 'data-testid': 'new-org-heading' }, 'New organization'),
    h(
      'p',
      { class: 'muted' },
      'An organization holds spaces, collections and docs sites, and the people who work on them. You will be its administrator.',
    ),
    h('label', {}, 'Name', title),
    submit,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void act(submit, 'Could not create the organization', () =>
      createOrganization(session.api, title.value.trim()),
    ).then((org) => org && nav.go({ view: 'org', orgId: org.id, tab: 'home' }));
  });
  queueMicrotask(() => title.focus());
  return form;
}
