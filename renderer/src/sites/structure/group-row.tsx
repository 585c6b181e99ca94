import { useApp } from '../../screens/context';
import { confirmDialog } from '../../ui/kit/dialog';
import { Icon } from '../../ui/kit/icon';
import { MenuButton, type MenuItem } from '../../ui/kit/menu';
import type { SiteSection, SiteSectionGroup } from '../site-api';
import { useStructure } from './context';
import { siblingMove } from './model';
import { DragGrip, MoveButtons } from './row-controls';
import { SectionRow } from './section-row';
import { keepFocusIn, useSortable, type RowProps } from './sortable';

/**
 * A section group (a drop-down of tabs on the published site) and its sections, which reorder
 * among themselves; for managers: rename, add a section to it, delete (its sections stay).
 */
export function GroupRow(props: {
  group: SiteSectionGroup;
  sections: SiteSection[];
  index: number;
  count: number;
  onStep: (by: -1 | 1) => void;
  rowProps: RowProps;
}) {
  const { group, sections, index, count } = props;
  const { stores } = useApp();
  const { orgId, siteId, canManage, busy, run, open } = useStructure();
  const sortable = useSortable({
    list: `group-${group.id}`,
    ids: sections.map((s) => s.id),
    enabled: canManage && !busy,
    onMove: (id, to) => {
      const position = siblingMove(sections, id, to);
      if (!position) return;
      const restore = keepFocusIn(id);
      void run('move the section', () => stores.sites.moveSection(orgId, siteId, id, position)).then(restore);
    },
  });
  const actions = (): MenuItem[] => [
    { label: 'Rename', icon: 'pencil', testid: 'group-rename', run: () => open({ kind: 'rename-group', group }) },
    {
      label: 'Add a section to it',
      icon: 'folder-plus',
      testid: 'group-add-section',
      run: () => open({ kind: 'group-add-section', group }),
    },
    {
      label: 'New section in it',
      icon: 'plus',
      testid: 'group-new-section',
      run: () => open({ kind: 'add-section', groupId: group.id }),
    },
    {
      label: 'Delete group',
      icon: 'trash',
      testid: 'group-delete',
      danger: true,
      run: () =>
        void (async () => {
          const ok = await confirmDialog(`Delete the group “${group.title}”? Its sections stay on the site.`, 'Delete');
          if (ok) await run('delete the group', () => stores.sites.deleteGroup(orgId, siteId, group.id));
        })(),
    },
  ];
  return (
    <li
      class="site-item site-group"
      data-testid="group-row"
      data-row-id={group.id}
      data-group-id={group.id}
      {...props.rowProps}
    >
      <div class="site-item-head">
        {canManage && count > 1 && <DragGrip />}
        <span class="site-row-title">
          <Icon name="folder" />
          <strong data-testid="group-title">{group.title}</strong>
          <span class="badge">Group</span>
        </span>
        {canManage && (
          <span class="site-row-actions">
            <MoveButtons name={group.title} index={index} count={count} busy={busy} onStep={props.onStep} />
            <MenuButton label={`Actions of group ${group.title}`} testid="group-menu" items={actions} />
          </span>
        )}
      </div>
      {sections.length === 0 ? (
        <p class="muted site-empty-line">No section in this group yet.</p>
      ) : (
        <ul class="site-item-list site-group-sections" data-testid="group-sections">
          {sections.map((section, i) => (
            <SectionRow
              key={section.id}
              section={section}
              index={i}
              count={sections.length}
              onStep={(by) => sortable.step(section.id, by)}
              rowProps={sortable.rowProps(section.id)}
            />
          ))}
        </ul>
      )}
    </li>
  );
}
