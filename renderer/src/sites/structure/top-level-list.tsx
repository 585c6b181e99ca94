import { useApp } from '../../screens/context';
import { useStructure } from './context';
import { planTopLevelMove, topLevelOf } from './model';
import { GroupRow } from './group-row';
import { SectionRow } from './section-row';
import { keepFocusIn, useSortable } from './sortable';

/** The top level of a site with sections: sections outside groups and groups, in order. */
export function TopLevelList() {
  const { stores } = useApp();
  const { orgId, siteId, structure, canManage, busy, run } = useStructure();
  const items = topLevelOf(structure);
  const sortable = useSortable({
    list: 'top-level',
    ids: items.map((i) => i.id),
    enabled: canManage && !busy,
    onMove: (id, to) => {
      const steps = planTopLevelMove(items, id, to);
      if (steps.length === 0) return;
      const restore = keepFocusIn(id);
      const what = items.find((i) => i.id === id)?.type === 'group' ? 'move the group' : 'move the section';
      void run(what, () => stores.sites.moveTopLevel(orgId, siteId, steps)).then(restore);
    },
  });
  return (
    <ul class="site-item-list" data-testid="section-list">
      {items.map((item, index) =>
        item.type === 'section' ? (
          <SectionRow
            key={item.id}
            section={item.section}
            index={index}
            count={items.length}
            onStep={(by) => sortable.step(item.id, by)}
            rowProps={sortable.rowProps(item.id)}
          />
        ) : (
          <GroupRow
            key={item.id}
            group={item.group}
            sections={item.sections}
            index={index}
            count={items.length}
            onStep={(by) => sortable.step(item.id, by)}
            rowProps={sortable.rowProps(item.id)}
          />
        ),
      )}
    </ul>
  );
}
