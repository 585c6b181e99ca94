import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from '../screens/context';
import { createOrganization } from '../stores/org-writes';
import { useAction } from './components/use-action';

/** Creates an organization; the caller becomes its admin and lands on its home. */
export default function NewOrgScreen() {
  const { stores, nav } = useApp();
  const [title, setTitle] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const create = useAction();
  useEffect(() => field.current?.focus(), []);
  const submit = async () => {
    const org = await create.run('Could not create the organization', () => createOrganization(stores, title.trim()));
    if (org) nav.go({ view: 'org', orgId: org.id, tab: 'home' });
  };
  return (
    <form
      class="org-form card"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h1 class="org-heading" data-testid="new-org-heading">
        New organization
      </h1>
      <p class="muted">
        An organization holds spaces, collections and docs sites, and the people who work on them. You will be its
        administrator.
      </p>
      <label>
        Name
        <input
          ref={field}
          type="text"
          required
          minLength={2}
          maxLength={255}
          placeholder="Acme Inc."
          data-testid="new-org-title"
          autocomplete="organization"
          value={title}
          onInput={(event) => setTitle(event.currentTarget.value)}
        />
      </label>
      <button type="submit" class="primary" data-testid="new-org-create" disabled={create.busy}>
        Create organization
      </button>
    </form>
  );
}
