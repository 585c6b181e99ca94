import { useApp } from '../../screens/context';
import { deleteInviteLink } from '../../stores/org-writes';
import { Icon } from '../../ui/kit/icon';
import { joinUrl, roleLabel, type InviteLink } from '../org-api';
import { CopyField } from './copy-field';
import { useAction } from './use-action';

/** One invite link: what it grants, its URL to copy, and delete. */
export function InviteLinkRow(props: { orgId: string; link: InviteLink; onDeleted?: () => void }) {
  const { orgId, link } = props;
  const { session, stores } = useApp();
  const remove = useAction();
  const url = joinUrl(session.api.serverUrl, orgId, link.id);
  const grants =
    link.role !== undefined ? `Joins as ${roleLabel(link.role)}` : `Grants ${roleLabel(link.level ?? null)}`;
  const target = link.space ? ` on ${link.space.title}` : link.collection ? ` on ${link.collection.title}` : '';
  return (
    <li class="org-link-row" data-testid="invite-link" data-invite-id={link.id}>
      <span class="org-row-main">{`${grants}${target}`}</span>
      <CopyField text={url} label="Invite link" testid="invite-link-url" copyTestid="invite-link-copy" />
      <button
        type="button"
        class="icon-button"
        title="Delete this link"
        aria-label="Delete this invite link"
        data-testid="invite-link-delete"
        disabled={remove.busy}
        onClick={() =>
          void remove
            .run('Could not delete the link', () => deleteInviteLink(stores, orgId, link.id).then(() => true))
            .then((done) => done && props.onDeleted?.())
        }
      >
        <Icon name="trash" />
      </button>
    </li>
  );
}
