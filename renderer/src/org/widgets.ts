import { describeError } from '../api/client';
import { h } from '../ui/dom';
import { toast } from '../ui/toast';
import { roleLabel, ROLES, type DefaultLevel, type Role } from './org-api';

/** A settings section: a heading, an optional action in the header, then its body. */
export function panel(
  title: string,
  testid: string,
  action: HTMLElement | null | false,
  ...body: (Node | string | null | undefined | false)[]
): HTMLElement {
  const id = `org-panel-${testid}`;
  return h(
    'section',
    { class: 'org-panel', 'aria-labelledby': id, 'data-testid': testid },
    h('header', { class: 'org-panel-header' }, h('h2', { id }, title), action),
    ...body,
  );
}

/** A select of roles (`guest` optional), labelled for screen readers. */
export function roleSelect(
  value: Role | null,
  options: { label: string; testid: string; guest?: boolean; disabled?: boolean },
): HTMLSelectElement {
  const choices: (Role | null)[] = [...ROLES, ...(options.guest ? [null] : [])];
  return h(
    'select',
    { 'aria-label': options.label, 'data-testid': options.testid, disabled: options.disabled },
    ...choices.map((role) => h('option', { value: role ?? 'guest', selected: role === value }, roleLabel(role))),
  );
}

/** A select of space / collection default levels. */
export function levelSelect(
  value: DefaultLevel,
  options: { label: string; testid: string; inheritFrom: 'collection' | 'organization'; disabled?: boolean },
): HTMLSelectElement {
  const choices: DefaultLevel[] = ['inherit', ...ROLES, null];
  return h(
    'select',
    { 'aria-label': options.label, 'data-testid': options.testid, disabled: options.disabled },
    ...choices.map((level) =>
      h(
        'option',
        { value: level ?? 'none', selected: level === value },
        level === null
          ? 'No access'
          : level === 'inherit'
            ? options.inheritFrom === 'collection'
              ? 'As in the collection'
              : 'Their organization role'
            : roleLabel(level),
      ),
    ),
  );
}

/** The value of a role select. */
export function selectedRole(select: HTMLSelectElement): Role | null {
  return select.value === 'guest' ? null : (select.value as Role);
}

/** The value of a level select. */
export function selectedLevel(select: HTMLSelectElement): DefaultLevel {
  return select.value === 'none' ? null : (select.value as DefaultLevel);
}

/** Runs an API call from a control: disables it meanwhile, says failures in a toast. */
export async function act<T>(
  control: HTMLElement | null,
  failure: string,
  run: () => Promise<T>,
): Promise<T | undefined> {
  const el = control as (HTMLElement & { disabled?: boolean }) | null;
  if (el) el.disabled = true;
  try {
    return await run();
  } catch (err) {
    toast(`${failure}: ${describeError(err)}`, 'error');
    return undefined;
  } finally {
    if (el) el.disabled = false;
  }
}

/** Copies text and says so (the clipboard may be refused: then the text is selected for the user). */
export async function copyText(text: string, field?: HTMLInputElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast('Link copied');
  } catch {
    field?.select();
    toast('Select the link and copy it (the clipboard is not available here)');
  }
}

/** The initial of a name, as an avatar. */
export function avatar(name: string): HTMLElement {
  return h('span', { class: 'avatar-initial', 'aria-hidden': 'true' }, (name.trim()[0] ?? '?').toUpperCase());
}
