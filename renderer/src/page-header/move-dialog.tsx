import { useEffect, useRef, useState } from 'preact/hooks';
import { Dialog, DialogActions, openDialog } from '../ui/kit/dialog';
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
  const all = moveDestinations(tree, id);
  return openDialog<{ parent: string | null } | undefined>((close) => (
    <MoveDialog title={title} destinations={all} close={close} />
  ));
}

function MoveDialog(props: {
  title: string;
  destinations: Destination[];
  close: (answer: { parent: string | null } | undefined) => void;
}) {
  const [query, setQuery] = useState('');
  const filter = useRef<HTMLInputElement>(null);
  useEffect(() => filter.current?.focus(), []);
  const q = query.trim().toLowerCase();
  // Filtered, the matches are listed flat (one level under the top level), not at their depth.
  const shown = q
    ? props.destinations
        .filter((d) => d.parent === null || d.title.toLowerCase().includes(q))
        .map((d) => ({ ...d, depth: d.parent === null ? 0 : 1 }))
    : props.destinations;
  return (
    <Dialog
      title={`Move “${props.title}”`}
      heading={false}
      onClose={() => props.close(undefined)}
      testid="move-dialog"
      class="move-dialog"
    >
      <h2 class="move-heading">Move “{props.title}” to…</h2>
      <input
        ref={filter}
        type="search"
        class="move-filter"
        placeholder="Filter pages"
        aria-label="Filter destinations"
        data-testid="move-filter"
        value={query}
        onInput={(event) => setQuery(event.currentTarget.value)}
      />
      <ul class="move-list" aria-label="Destinations">
        {shown.map((d) => (
          <li key={d.parent ?? ''}>
            <button
              type="button"
              class="move-option"
              style={`--depth: ${d.depth}`}
              disabled={d.current}
              data-testid="move-option"
              data-parent={d.parent ?? ''}
              onClick={() => props.close({ parent: d.parent })}
            >
              <span class="move-emoji" aria-hidden="true">
                {d.emoji ?? (d.parent === null ? '⌂' : '')}
              </span>
              <span class="move-title">{d.title}</span>
              {d.current && <span class="move-here">current</span>}
            </button>
          </li>
        ))}
      </ul>
      <DialogActions>
        <button type="button" data-testid="move-cancel" onClick={() => props.close(undefined)}>
          Cancel
        </button>
      </DialogActions>
    </Dialog>
  );
}
