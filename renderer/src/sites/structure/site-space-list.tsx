import { useApp } from '../../screens/context';
import { confirmDialog } from '../../ui/kit/dialog';
import { Icon } from '../../ui/kit/icon';
import { Link } from '../../ui/kit/link';
import { MenuButton, type MenuItem } from '../../ui/kit/menu';
import type { SiteSection, SiteSpace } from '../site-api';
import { useStructure } from './context';
import { siblingMove } from './model';
import { DragGrip, MoveButtons } from './row-controls';
import { keepFocusIn, useSortable } from './sortable';

/**
 * The site spaces of a section (its variants: versions, languages…) or, on a site without
 * sections, of the site itself: each with its path and whether it is the default, and for
 * managers: reorder, set as default, change the path, remove.
 */
export function SiteSpaceList({ siteSpaces, section }: { siteSpaces: SiteSpace[]; section?: SiteSection }) {
  const { stores } = useApp();
  const { orgId, siteId, canManage, busy, run, open } = useStructure();
  const ids = siteSpaces.map((s) => s.id);
  const sortable = useSortable({
    list: `site-spaces-${section?.id ?? 'root'}`,
    ids,
    enabled: canManage && !busy,
    onMove: (id, to) => {
      const position = siblingMove(siteSpaces, id, to);
      if (!position) return;
      const restore = keepFocusIn(id);
      void run('move the space', () => stores.sites.moveSiteSpace(orgId, siteId, id, position)).then(restore);
    },
  });
  if (siteSpaces.length === 0) return <p class="muted site-empty-line">No space in this section.</p>;
  return (
    <ul class="site-space-list" data-testid={section ? 'variant-list' : 'site-space-list'}>
      {siteSpaces.map((siteSpace, index) => (
        <li
          key={siteSpace.id}
          class="site-space-row"
          data-testid="site-space-row"
          data-row-id={siteSpace.id}
          data-site-space-id={siteSpace.id}
          {...sortable.rowProps(siteSpace.id)}
        >
          {canManage && siteSpaces.length > 1 && <DragGrip />}
          <span class="site-row-title">
            <Link
              to={{ view: 'space', spaceId: siteSpace.space.id }}
              class="site-space-link"
              data-testid="site-space-title"
            >
              {siteSpace.space.emoji ? (
                <span aria-hidden="true">{siteSpace.space.emoji}</span>
              ) : (
                <Icon name="book-open" />
              )}
              {siteSpace.title}
            </Link>
            <code class="site-path" data-testid="site-space-path">
              /{siteSpace.path}
            </code>
            {siteSpace.default && (
              <span class="badge badge-active" data-testid="site-space-default">
                Default
              </span>
            )}
            {siteSpace.condition && (
              <span class="badge" title={siteSpace.condition}>
                Condition
              </span>
            )}
          </span>
          {canManage && (
            <span class="site-row-actions">
              <MoveButtons
                name={siteSpace.title}
                index={index}
                count={siteSpaces.length}
                busy={busy}
                onStep={(by) => sortable.step(siteSpace.id, by)}
              />
              <MenuButton
                label={`Actions of ${siteSpace.title}`}
                testid="site-space-menu"
                items={() => siteSpaceActions(siteSpace, section)}
              />
            </span>
          )}
        </li>
      ))}
    </ul>
  );

  function siteSpaceActions(siteSpace: SiteSpace, section: SiteSection | undefined): MenuItem[] {
    const items: MenuItem[] = [];
    if (!siteSpace.default)
      items.push({
        label: 'Set as default',
        icon: 'star',
        testid: 'site-space-set-default',
        run: () =>
          void run('set the default space', () =>
            section
              ? stores.sites.updateSection(orgId, siteId, section.id, { defaultSiteSpace: siteSpace.id })
              : stores.sites.setDefaultRootSiteSpace(orgId, siteId, siteSpace.id),
          ),
      });
    items.push(
      {
        label: 'Change path',
        icon: 'link',
        testid: 'site-space-path-edit',
        run: () => open({ kind: 'site-space-path', siteSpace }),
      },
      {
        label: section ? 'Remove from section' : 'Remove from site',
        icon: 'trash',
        testid: 'site-space-remove',
        danger: true,
        run: () =>
          void (async () => {
            if (!(await confirmDialog(`Remove “${siteSpace.title}” from the site? The space itself stays.`, 'Remove')))
              return;
            await run('remove the space', () => stores.sites.removeSiteSpace(orgId, siteId, siteSpace.id));
          })(),
      },
    );
    return items;
  }
}
