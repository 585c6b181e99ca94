import { useState } from 'preact/hooks';
import { useApp } from '../../screens/context';
import { FormDialog, FormError } from '../../ui/kit/form-dialog';
import type { StructureDialog } from './context';
import { useStructure } from './context';
import { rootSiteSpaces } from './model';
import { SpacePickerDialog } from './space-picker-dialog';
import { checks, TextDialog } from './text-dialog';

/** The open dialog of the structure screen. Each saves through the site stores and closes on success. */
export function StructureDialogs({ dialog, onClose }: { dialog: StructureDialog | undefined; onClose: () => void }) {
  const { stores } = useApp();
  const { orgId, siteId, structure } = useStructure();
  const sites = stores.sites;
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'add-space':
      return (
        <SpacePickerDialog
          orgId={orgId}
          title="Add a space to the site"
          submitLabel="Add space"
          testid="add-space-dialog"
          exclude={new Set(rootSiteSpaces(structure).map((s) => s.space.id))}
          add={(spaceId) => sites.addSpace(orgId, siteId, spaceId)}
          onClose={onClose}
        />
      );
    case 'add-section':
      return (
        <SpacePickerDialog
          orgId={orgId}
          title={
            dialog.groupId
              ? `New section in “${structure.groups.find((g) => g.id === dialog.groupId)?.title ?? 'the group'}”`
              : 'New section'
          }
          submitLabel="Create section"
          testid="add-section-dialog"
          withSectionTitle
          exclude={new Set()}
          hint={
            structure.sections.length === 0 && structure.siteSpaces.length > 0
              ? 'The spaces the site publishes now move into a first section named after the site.'
              : 'A section is a tab of the published site; it starts with this space.'
          }
          add={(spaceId, title) =>
            sites.addSection(orgId, siteId, {
              spaceId,
              ...(title ? { title } : {}),
              ...(dialog.groupId ? { siteSectionGroupId: dialog.groupId } : {}),
            })
          }
          onClose={onClose}
        />
      );
    case 'add-variant':
      return (
        <SpacePickerDialog
          orgId={orgId}
          title={`Add a variant to “${dialog.section.title}”`}
          submitLabel="Add variant"
          testid="add-variant-dialog"
          hint="Variants are versions or languages of the section: readers switch between them."
          exclude={new Set(dialog.section.siteSpaces.map((s) => s.space.id))}
          add={(spaceId) => sites.addSpace(orgId, siteId, spaceId, dialog.section.id)}
          onClose={onClose}
        />
      );
    case 'rename-section':
      return (
        <TextDialog
          title="Rename the section"
          label="Title"
          initial={dialog.section.title}
          testid="section-rename-dialog"
          check={checks.sectionTitle}
          save={(title) => sites.updateSection(orgId, siteId, dialog.section.id, { title })}
          onClose={onClose}
        />
      );
    case 'section-path':
      return (
        <TextDialog
          title="Change the section's path"
          label="Path"
          initial={dialog.section.path}
          testid="section-path-dialog"
          hint="Where the section is on the published site: /<path>. Links to the old path stop working."
          check={checks.path}
          save={(path) => sites.updateSection(orgId, siteId, dialog.section.id, { path })}
          onClose={onClose}
        />
      );
    case 'site-space-path':
      return (
        <TextDialog
          title={`Change the path of “${dialog.siteSpace.title}”`}
          label="Path"
          initial={dialog.siteSpace.path}
          testid="site-space-path-dialog"
          hint="Where this space is on the published site, within its section."
          check={checks.path}
          save={(path) => sites.updateSiteSpace(orgId, siteId, dialog.siteSpace.id, { path })}
          onClose={onClose}
        />
      );
    case 'new-group':
      return (
        <TextDialog
          title="New section group"
          label="Title"
          initial=""
          submitLabel="Create group"
          testid="new-group-dialog"
          hint="A group gathers sections under one tab of the published site."
          check={checks.groupTitle}
          save={(title) => sites.addGroup(orgId, siteId, { title })}
          onClose={onClose}
        />
      );
    case 'rename-group':
      return (
        <TextDialog
          title="Rename the group"
          label="Title"
          initial={dialog.group.title}
          testid="group-rename-dialog"
          check={checks.groupTitle}
          save={(title) => sites.updateGroup(orgId, siteId, dialog.group.id, { title })}
          onClose={onClose}
        />
      );
    case 'group-add-section':
      return <GroupAddSectionDialog groupId={dialog.group.id} title={dialog.group.title} onClose={onClose} />;
  }
}

/** Moves one of the site's sections outside groups into a group. */
function GroupAddSectionDialog(props: { groupId: string; title: string; onClose: () => void }) {
  const { stores } = useApp();
  const { orgId, siteId, structure } = useStructure();
  const candidates = structure.sections.filter((s) => s.sectionGroup !== props.groupId);
  const [sectionId, setSectionId] = useState('');
  return (
    <FormDialog
      title={`Add a section to “${props.title}”`}
      submitLabel="Add to group"
      testid="group-add-section-dialog"
      submitTestid="group-add-section-dialog-save"
      onClose={props.onClose}
      onSubmit={async () => {
        if (!sectionId) throw new FormError('Choose a section.');
        await stores.sites.addSectionToGroup(orgId, siteId, props.groupId, sectionId);
        props.onClose();
      }}
    >
      {candidates.length === 0 ? (
        <p class="muted">Every section is already in this group.</p>
      ) : (
        <label>
          Section
          <select
            value={sectionId}
            autoFocus
            data-testid="group-section-select"
            onChange={(event) => setSectionId(event.currentTarget.value)}
          >
            <option value="">Choose a section…</option>
            {candidates.map((section) => (
              <option key={section.id} value={section.id}>
                {section.title}
                {section.sectionGroup
                  ? ` (in ${structure.groups.find((g) => g.id === section.sectionGroup)?.title ?? 'a group'})`
                  : ''}
              </option>
            ))}
          </select>
        </label>
      )}
    </FormDialog>
  );
}
