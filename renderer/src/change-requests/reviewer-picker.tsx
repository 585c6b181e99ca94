import { useEffect, useRef, useState } from 'preact/hooks';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { Dialog, DialogActions, openDialog } from '../ui/kit/dialog';
import { useAsync } from '../ui/kit/hooks';
import type { Member } from './cr-api';

/**
 * Asks which organization members should review: a checklist (filterable) of members, those
 * already requested ticked. Resolves with the chosen user ids, or undefined when cancelled.
 */
export function pickReviewers(
  loadMembers: () => Promise<Member[]>,
  already: Set<string>,
  selfId: string,
): Promise<string[] | undefined> {
  return openDialog<string[] | undefined>((close) => (
    <ReviewerPicker loadMembers={loadMembers} already={already} selfId={selfId} close={close} />
  ));
}

export function ReviewerPicker(props: {
  loadMembers: () => Promise<Member[]>;
  already: Set<string>;
  selfId: string;
  close: (chosen: string[] | undefined) => void;
}) {
  const { state, retry } = useAsync(props.loadMembers, []);
  const [chosen, setChosen] = useState(() => new Set(props.already));
  const [filter, setFilter] = useState('');
  const filterInput = useRef<HTMLInputElement>(null);
  useEffect(() => filterInput.current?.focus(), []);
  const toggle = (id: string, on: boolean) =>
    setChosen((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const query = filter.trim().toLowerCase();
  return (
    <Dialog
      title="Request reviewers"
      onClose={() => props.close(undefined)}
      class="reviewer-dialog"
      testid="reviewer-dialog"
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          props.close([...chosen]);
        }}
      >
        <p class="muted">They see the request in their list and can approve it or ask for changes.</p>
        <input
          ref={filterInput}
          type="search"
          placeholder="Filter by name"
          aria-label="Filter members by name"
          data-testid="reviewer-filter"
          value={filter}
          onInput={(event) => setFilter(event.currentTarget.value)}
        />
        <div class="reviewer-list" role="group" aria-label="Members">
          <AsyncSection state={state} what="members" retry={retry}>
            {(members) => {
              const others = members.filter((m) => m.user.id !== props.selfId && m.role !== null);
              if (others.length === 0) return <EmptyState message="No other members in this organization yet." />;
              return others.map((m) => (
                <label
                  key={m.user.id}
                  class="reviewer-row"
                  hidden={Boolean(query) && !m.user.displayName.toLowerCase().includes(query)}
                >
                  <input
                    type="checkbox"
                    value={m.user.id}
                    checked={chosen.has(m.user.id)}
                    data-testid="reviewer-option"
                    onChange={(event) => toggle(m.user.id, event.currentTarget.checked)}
                  />
                  <span class="reviewer-name">{m.user.displayName}</span>
                  {m.role && <span class="badge">{m.role}</span>}
                </label>
              ));
            }}
          </AsyncSection>
        </div>
        <DialogActions>
          <button type="button" onClick={() => props.close(undefined)}>
            Cancel
          </button>
          <button type="submit" class="primary" data-testid="reviewers-ok">
            Request review
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Asks for an optional review comment; resolves undefined when cancelled. */
export function reviewCommentDialog(status: 'approved' | 'changes-requested'): Promise<string | undefined> {
  return openDialog<string | undefined>((close) => <ReviewCommentForm status={status} close={close} />);
}

function ReviewCommentForm(props: {
  status: 'approved' | 'changes-requested';
  close: (comment: string | undefined) => void;
}) {
  const approving = props.status === 'approved';
  const [text, setText] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <Dialog
      title={approving ? 'Approve this change request' : 'Request changes'}
      onClose={() => props.close(undefined)}
      class="review-dialog"
      testid="review-dialog"
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          props.close(text);
        }}
      >
        <textarea
          ref={input}
          rows={4}
          aria-label="Review comment"
          placeholder={approving ? 'Optional comment' : 'What should change?'}
          data-testid="review-comment"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <DialogActions>
          <button type="button" onClick={() => props.close(undefined)}>
            Cancel
          </button>
          <button type="submit" class={approving ? 'primary' : 'danger'} data-testid="review-submit">
            {approving ? 'Approve' : 'Request changes'}
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
