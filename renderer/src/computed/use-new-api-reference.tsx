import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import type { MenuItem } from '../ui/kit/menu';
import { NewApiReferenceDialog } from './new-api-reference-dialog';
import { useMayWrite } from './use-may-write';

/**
 * The "API reference from an OpenAPI spec…" entry of the page tree's add menu, and its dialog. The
 * dialog is drawn by the caller (`dialog`, inside the workspace), so it has the app's context: its
 * spec list and its link to the specs screen need it. Writers only: with read-only content, or
 * before the space's organization is known, there is no entry.
 */
export function useNewApiReference(options: {
  content: ContentDoc;
  spaceId: string;
  orgId: string | undefined;
  editable: boolean;
  open: (pageId: string) => void;
}): { items: MenuItem[]; dialog: ComponentChildren } {
  const [showing, setShowing] = useState(false);
  const { orgId } = options;
  const mayWrite = useMayWrite(options.spaceId, options.editable);
  if (!orgId || !mayWrite) return { items: [], dialog: null };
  return {
    items: [
      {
        label: 'API reference from an OpenAPI spec…',
        icon: 'code',
        testid: 'new-api-reference',
        run: () => setShowing(true),
      },
    ],
    dialog: showing && (
      <NewApiReferenceDialog
        orgId={orgId}
        content={options.content}
        onClose={() => setShowing(false)}
        onCreated={(pageId) => {
          setShowing(false);
          options.open(pageId);
        }}
      />
    ),
  };
}
