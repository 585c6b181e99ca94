import type { ContentDoc } from '../../../shared/doc/content-doc';
import { replaceText } from '../../../shared/doc/replace-text';
import { DiffDialog } from '../diff/diff-dialog';
import { confirmDialog } from '../ui/kit/dialog';
import { Icon } from '../ui/kit/icon';
import { toast } from '../ui/toast';
import type { HistoryApi, RevisionSummary } from './history-api';
import type { RevisionPage } from './revision-item';
import { fullTime, relativeTime } from './time';

/**
 * A page at one revision against its current text, with "Restore this version". A restore is an
 * ordinary edit of the page's Y.Text (word-level, in one transaction): it syncs and merges like
 * typing, and the editor's undo takes it back.
 */
export function CompareDialog(props: {
  history: HistoryApi;
  content: ContentDoc;
  canEdit: () => boolean;
  revision: RevisionSummary;
  page: RevisionPage;
  onRestored: () => void;
  onClose: () => void;
}) {
  const { content, revision: rev, page } = props;
  const when = `${relativeTime(rev.createdAt)} (${fullTime(rev.createdAt)})`;
  const editable = props.canEdit();

  const restore = async (text: string) => {
    if (!content.hasPage(page.id)) {
      toast('This page no longer exists.', 'error');
      return;
    }
    if (!(await confirmDialog(`Restore “${page.title}” to its version of ${when}?`, 'Restore'))) return;
    const changed = replaceText(content.pageBody(page.id), text);
    toast(changed ? `Restored “${page.title}”. Undo with Ctrl+Z in the editor.` : 'The page already reads like this.');
    if (changed) props.onRestored();
    props.onClose();
  };

  return (
    <DiffDialog
      title={page.title}
      subtitle={`Version of ${when} → current text`}
      before={() => props.history.pageMarkdownAt(rev.id, page.id)}
      after={() => (content.hasPage(page.id) ? content.getMarkdown(page.id) : '')}
      onClose={props.onClose}
      actions={(texts) => (
        <button
          type="button"
          class="primary"
          data-testid="history-restore"
          disabled={!editable || !texts}
          title={editable ? 'Make the page read like this version again' : 'You cannot edit this space'}
          onClick={() => texts && void restore(texts.before)}
        >
          <Icon name="rotate-ccw" /> Restore this version
        </button>
      )}
    />
  );
}
