import { h } from '../ui/dom';
import { moveDestinations, type Destination, type DestinationTree } from './move-destinations';

/**
 * "Move to…": a dialog listing the top level and the pages a page may move
 * under (indented as in the tree), with a filter for large spaces. Resolves
 * the chosen parent (null = top level), or undefined when cancelled.
 */
export function moveDialog(
  tree: DestinationTree,
  id: string,
  title: string,
): Promise<{ parent: string | null } | undefined> {
  return new Promise((resolve) => {
    const all = moveDestinations(tree, id);
    const dialog = h('dialog', {
      class: 'dialog move-dialog',
      'data-testid': 'move-dialog',
      'aria-label': `Move “${title}”`,
    });
    const list = h('ul', { class: 'move-list', 'aria-label': 'Destinations' });
    const filter = h('input', {
      type: 'search',
      class: 'move-filter',
      placeholder: 'Filter pages',
      'aria-label': 'Filter destinations',
      'data-testid': 'move-filter',
    });
    let done = false;
    const finish = (value: { parent: string | null } | undefined) => {
      if (done) return;
      done = true;
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    const row = (d: Destination) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'move-option',
            style: `--depth: ${d.depth}`,
            disabled: d.current,
            'data-testid': 'move-option',
            'data-parent': d.parent ?? '',
            onclick: () => finish({ parent: d.parent }),
          },
          h('span', { class: 'move-emoji', 'aria-hidden': 'true' }, d.emoji ?? (d.parent === null ? '⌂' : '')),
          h('span', { class: 'move-title' }, d.title),
          d.current ? h('span', { class: 'move-here' }, 'current') : null,
        ),
      );
    const render = () => {
      const q = filter.value.trim().toLowerCase();
      const shown = q ? all.filter((d) => d.parent === null || d.title.toLowerCase().includes(q)) : all;
      list.replaceChildren(...shown.map((d) => row(q ? { ...d, depth: d.parent === null ? 0 : 1 } : d)));
    };
    filter.addEventListener('input', render);
    dialog.append(
      h('h2', { class: 'move-heading' }, `Move “${title}” to…`),
      filter,
      list,
      h(
        'div',
        { class: 'dialog-actions' },
        h('button', { type: 'button', 'data-testid': 'move-cancel', onclick: () => finish(undefined) }, 'Cancel'),
      ),
    );
    dialog.addEventListener('cancel', () => finish(undefined));
    render();
    document.body.append(dialog);
    dialog.showModal();
    filter.focus();
  });
}
