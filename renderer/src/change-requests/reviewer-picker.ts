import { describeError } from '../api/client';
import { empty, errorState, h, loading, replace } from '../ui/dom';
import type { Member } from './cr-api';

/**
 * Asks which organization members should review: a checklist (filterable)
 * of members, those already requested ticked. Resolves with the chosen user
 * ids, or undefined when cancelled.
 */
export function pickReviewers(
  loadMembers: () => Promise<Member[]>,
  already: Set<string>,
  selfId: string,
): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const list = h('div', { class: 'reviewer-list', role: 'group', 'aria-label': 'Members' }, loading('members'));
    const filter = h('input', {
      type: 'search',
      placeholder: 'Filter by name',
      'aria-label': 'Filter members by name',
      'data-testid': 'reviewer-filter',
    });
    const ok = h('button', { type: 'submit', class: 'primary', 'data-testid': 'reviewers-ok' }, 'Request review');
    const form = h(
      'form',
      { method: 'dialog' },
      h('h2', {}, 'Request reviewers'),
      h('p', { class: 'muted' }, 'They see the request in their list and can approve it or ask for changes.'),
      filter,
      list,
      h('div', { class: 'dialog-actions' }, h('button', { type: 'button', 'data-role': 'cancel' }, 'Cancel'), ok),
    );
    const dialog = h('dialog', { class: 'dialog reviewer-dialog', 'data-testid': 'reviewer-dialog' }, form);
    let done = false;
    const finish = (value: string[] | undefined) => {
      if (done) return;
      done = true;
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const chosen = Array.from(
        list.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked'),
        (i) => i.value,
      );
      finish(chosen);
    });
    form.querySelector('[data-role=cancel]')?.addEventListener('click', () => finish(undefined));
    dialog.addEventListener('cancel', () => finish(undefined));
    document.body.append(dialog);
    dialog.showModal();
    filter.focus();

    loadMembers().then(
      (members) => {
        const others = members.filter((m) => m.user.id !== selfId && m.role !== null);
        if (others.length === 0) {
          replace(list, empty('No other members in this organization yet.'));
          return;
        }
        const rows = others.map((m) =>
          h(
            'label',
            { class: 'reviewer-row', 'data-name': m.user.displayName.toLowerCase() },
            h('input', {
              type: 'checkbox',
              value: m.user.id,
              checked: already.has(m.user.id),
              'data-testid': 'reviewer-option',
            }),
            h('span', { class: 'reviewer-name' }, m.user.displayName),
            m.role ? h('span', { class: 'badge' }, m.role) : null,
          ),
        );
        replace(list, ...rows);
        filter.addEventListener('input', () => {
          const q = filter.value.trim().toLowerCase();
          for (const row of rows) row.hidden = !!q && !row.dataset.name?.includes(q);
        });
      },
      (err) => replace(list, errorState(`Members are unavailable: ${describeError(err)}`)),
    );
  });
}

/** Asks for an optional review comment; resolves undefined when cancelled. */
export function reviewCommentDialog(status: 'approved' | 'changes-requested'): Promise<string | undefined> {
  return new Promise((resolve) => {
    const approving = status === 'approved';
    const text = h('textarea', {
      rows: 4,
      'aria-label': 'Review comment',
      placeholder: approving ? 'Optional comment' : 'What should change?',
      'data-testid': 'review-comment',
    });
    const form = h(
      'form',
      { method: 'dialog' },
      h('h2', {}, approving ? 'Approve this change request' : 'Request changes'),
      text,
      h(
        'div',
        { class: 'dialog-actions' },
        h('button', { type: 'button', 'data-role': 'cancel' }, 'Cancel'),
        h(
          'button',
          { type: 'submit', class: approving ? 'primary' : 'danger', 'data-testid': 'review-submit' },
          approving ? 'Approve' : 'Request changes',
        ),
      ),
    );
    const dialog = h('dialog', { class: 'dialog review-dialog', 'data-testid': 'review-dialog' }, form);
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      finish(text.value);
    });
    form.querySelector('[data-role=cancel]')?.addEventListener('click', () => finish(undefined));
    dialog.addEventListener('cancel', () => finish(undefined));
    document.body.append(dialog);
    dialog.showModal();
    text.focus();
  });
}
