import { useApp } from '../../screens/context';
import { confirmDialog } from '../../ui/kit/dialog';
import { Icon } from '../../ui/kit/icon';
import { MenuButton, type MenuItem } from '../../ui/kit/menu';
import type { SiteSection } from '../site-api';
import { useStructure } from './context';
import { DragGrip, MoveButtons } from './row-controls';
import { SiteSpaceList } from './site-space-list';
import type { RowProps } from './sortable';

/**
 * A section (a tab of the published site): its title, path and default mark, its variants, and
 * for managers: reorder, rename, change the path, set as default, add a variant, group, delete.
 */
export function SectionRow(props: {
  section: SiteSection;
  index: number;
  count: number;
  onStep: (by: -1 | 1) => void;
  rowProps: RowProps;
}) {
  const { section, index, count } = props;
  const { canManage, busy, open } = useStructure();
  const actions = useSectionActions(section);
  return (
    <li
      class="site-item site-section"
      data-testid="section-row"
      data-row-id={section.id}
      data-section-id={section.id}
      {...props.rowProps}
    >
      <div class="site-item-head">
        {canManage && count > 1 && <DragGrip />}
        <span class="site-row-title">
          <Icon name="layers" />
          <strong data-testid="section-title">{section.title}</strong>
          <code class="site-path" data-testid="section-path">
            /{section.path}
          </code>
          {section.default && (
            <span class="badge badge-active" data-testid="section-default">
              Default
            </span>
          )}
          {section.draft && <span class="badge badge-draft">Draft</span>}
        </span>
        {canManage && (
          <span class="site-row-actions">
            <MoveButtons name={section.title} index={index} count={count} busy={busy} onStep={props.onStep} />
            <MenuButton label={`Actions of section ${section.title}`} testid="section-menu" items={actions} />
          </span>
        )}
      </div>
      <div class="site-item-body">
        <SiteSpaceList siteSpaces={section.siteSpaces} section={section} />
        {canManage && (
          <button
            type="button"
            class="link site-add-inline"
            data-testid="add-variant"
            onClick={() => open({ kind: 'add-variant', section })}
          >
            <Icon name="plus" size={14} />
            Add variant
          </button>
        )}
      </div>
    </li>
  );
}

/** The menu of a section. */
function useSectionActions(section: SiteSection): () => MenuItem[] {
  const { stores } = useApp();
  const { orgId, siteId, structure, run, open } = useStructure();
  return () => {
    const items: MenuItem[] = [
      {
        label: 'Rename',
        icon: 'pencil',
        testid: 'section-rename',
        run: () => open({ kind: 'rename-section', section }),
      },
      {
        label: 'Change path',
        icon: 'link',
        testid: 'section-path-edit',
        run: () => open({ kind: 'section-path', section }),
      },
    ];
    if (!section.default)
      items.push({
        label: 'Set as default',
        icon: 'star',
        testid: 'section-set-default',
        run: () => void run('set the default section', () => stores.sites.setDefaultSection(orgId, siteId, section.id)),
      });
    items.push({
      label: 'Add variant',
      icon: 'plus',
      testid: 'section-add-variant',
      run: () => open({ kind: 'add-variant', section }),
    });
    if (section.sectionGroup) {
      const groupId = section.sectionGroup;
      items.push({
        label: 'Remove from group',
        icon: 'arrow-left',
        testid: 'section-ungroup',
        run: () =>
          void run('take the section out of its group', () =>
            stores.sites.removeSectionFromGroup(orgId, siteId, groupId, section.id),
          ),
      });
    } else {
      for (const group of structure.groups)
        items.push({
          label: `Move to group “${group.title}”`,
          icon: 'folder',
          testid: `section-to-group-${group.id}`,
          run: () =>
            void run('move the section into the group', () =>
              stores.sites.addSectionToGroup(orgId, siteId, group.id, section.id),
            ),
        });
    }
    items.push({
      label: 'Delete section',
      icon: 'trash',
      testid: 'section-delete',
      danger: true,
      run: () =>
        void (async () => {
          const ok = await confirmDialog(
            `Delete the section “${section.title}”? Its spaces leave the site; the spaces themselves stay.`,
            'Delete',
          );
          if (ok) await run('delete the section', () => stores.sites.deleteSection(orgId, siteId, section.id));
        })(),
    });
    return items;
  };
}
