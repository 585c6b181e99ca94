import { useEffect, useRef, useState } from 'preact/hooks';
import type { OpenSpace } from './open-space';

/**
 * The page the workspace shows for the page the route asks for. A page not in the local copy is
 * shown as missing once online (the server's copy is the truth), and waited for while offline or
 * syncing (the first page meanwhile). The asked-for page may arrive later (a new change request's
 * fork comes with the first sync): it opens then. A deleted page gives way to the first one.
 */
export function useOpenPage(space: OpenSpace, requested: string | undefined): string | undefined {
  const [shown, setShown] = useState(() => ({ id: pick(space, requested), exists: exists(space, requested) }));
  const wanted = useRef(requested);
  const latest = useRef(shown);
  latest.current = shown;
  const show = (id: string | undefined) => setShown({ id: pick(space, id), exists: exists(space, pick(space, id)) });

  useEffect(() => {
    if (requested !== undefined) wanted.current = requested;
    show(requested);
  }, [requested]);

  useEffect(
    () =>
      space.model.onChange(() => {
        const current = latest.current.id;
        const want = wanted.current;
        if (current !== want && want && space.contentDoc.hasPage(want)) show(want);
        else if (current && !space.contentDoc.hasPage(current)) show(undefined);
        else if (!current && space.model.size > 0) show(undefined);
        // The page shown as missing arrived (or the other way round): the view redraws.
        else if (latest.current.exists !== exists(space, current)) show(current);
      }),
    [space],
  );
  return shown.id;
}

function pick(space: OpenSpace, id: string | undefined): string | undefined {
  if (id !== undefined && !space.contentDoc.hasPage(id) && space.content.state !== 'online') id = undefined;
  if (id === undefined && space.model.size > 0) id = space.model.ordered()[0];
  return id;
}

function exists(space: OpenSpace, id: string | undefined): boolean {
  return id !== undefined && space.contentDoc.hasPage(id);
}

/** The title of a page, following renames. */
export function usePageTitle(space: OpenSpace | undefined, pageId: string | undefined): string | undefined {
  const read = () => (space && pageId ? space.model.entry(pageId)?.title : undefined);
  const [title, setTitle] = useState(read);
  useEffect(() => {
    setTitle(read());
    return space?.model.onChange(() => setTitle(read()));
  }, [space, pageId]);
  return title;
}
