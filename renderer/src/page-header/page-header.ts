import type { ContentDoc } from '../../../shared/doc/content-doc';
import { duplicatePage } from '../../../shared/doc/duplicate-page';
import { changeSlug, checkSlug, readPageMeta, type PageMeta } from '../../../shared/doc/page-meta';
import { attempt, deletePageInteractive, movePage } from '../tree/tree-actions';
import type { TreeModel } from '../tree/tree-model';
import { h, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import { menuButton, type MenuItem } from './actions-menu';
import { openEmojiPicker } from './emoji-picker';
import { moveDialog } from './move-dialog';
import './page-header.css';

/** What the header needs from the workspace. */
export interface PageHeaderDeps {
  content: ContentDoc;
  tree: TreeModel;
  open(pageId: string): void;
  /** The app URL prefix of this space (or change request), e.g. `https://host/app/s/<spaceId>`. */
  appBase(): string;
  /** Whether the document may be edited (false when the server refused write access). */
  editable(): boolean;
}

/**
 * The open page's header, GitBook-style: breadcrumbs (ancestors, clickable)
 * and the page actions menu (duplicate, move to…, copy link, delete with
 * undo); the icon (emoji picker) and the editable title; a one-line
 * description; the page's path with its editable slug (the old path keeps
 * resolving, see shared/doc/page-meta.ts) and "Hide from site". Every edit
 * is a Yjs transaction on the content document, so it syncs, and works
 * offline like typing does. Remote edits show at once, except in the field
 * the writer is editing.
 */
export class PageHeader {
  readonly element: HTMLElement;
  private pageId: string | undefined;
  private meta: PageMeta | undefined;
  private readonly crumbs = h('ol', { class: 'ph-crumb-list' });
  private readonly emoji = h('button', {
    type: 'button',
    class: 'ph-emoji',
    'aria-haspopup': 'dialog',
    'aria-expanded': 'false',
    'data-testid': 'page-emoji',
  });
  private readonly title = h('h1', {
    class: 'page-title ph-title',
    'data-testid': 'page-title',
    spellcheck: 'true',
  });
  private readonly description = h('input', {
    type: 'text',
    class: 'ph-description',
    placeholder: 'Add a description',
    'aria-label': 'Page description',
    maxlength: 500,
    'data-testid': 'page-description',
  });
  private readonly slugPrefix = h('span', { class: 'ph-slug-prefix' });
  private readonly slug = h('input', {
    type: 'text',
    class: 'ph-slug',
    'aria-label': 'Page slug (last part of its address)',
    'aria-describedby': 'ph-slug-message',
    spellcheck: 'false',
    autocomplete: 'off',
    'data-testid': 'page-slug',
  });
  private readonly slugMessage = h('span', {
    id: 'ph-slug-message',
    class: 'ph-slug-message',
    'aria-live': 'polite',
    'data-testid': 'page-slug-message',
  });
  private readonly hidden = h('button', {
    type: 'button',
    role: 'switch',
    class: 'ph-hidden ghost small',
    'data-testid': 'toggle-hidden',
  });
  private readonly unobserve: () => void;
  private readonly unfollowTree: () => void;

  constructor(private readonly deps: PageHeaderDeps) {
    const actions = menuButton('Page actions', () => this.menuItems(), 'page-actions');
    this.element = h(
      'div',
      { class: 'page-head', 'data-testid': 'page-head' },
      h(
        'div',
        { class: 'ph-bar' },
        h('nav', { class: 'ph-crumbs', 'aria-label': 'Breadcrumb', 'data-testid': 'breadcrumbs' }, this.crumbs),
        h('span', { class: 'ph-menu-anchor' }, actions),
      ),
      h('div', { class: 'ph-main' }, h('span', { class: 'ph-emoji-anchor' }, this.emoji), this.title),
      this.description,
      h(
        'div',
        { class: 'ph-meta' },
        h(
          'label',
          { class: 'ph-path', title: 'The page’s address: edit its last part (the old address keeps working)' },
          icon('link', { size: 14 }),
          this.slugPrefix,
          this.slug,
        ),
        this.slugMessage,
        h('span', { class: 'spacer' }),
        this.hidden,
      ),
    );
    this.wireTitle();
    this.wireDescription();
    this.wireSlug();
    this.emoji.addEventListener('click', () => {
      if (!this.pageId || !this.deps.editable()) return;
      const id = this.pageId;
      openEmojiPicker(this.emoji, this.meta?.emoji, (emoji) =>
        attempt(() => this.deps.content.updatePage(id, { emoji })),
      );
    });
    this.hidden.addEventListener('click', () => {
      const id = this.pageId;
      if (id && this.meta) attempt(() => this.deps.content.updatePage(id, { hidden: !this.meta!.hidden }));
    });
    // Any change to this page's fields, or to the tree (an ancestor renamed or moved), shows at once.
    // Typing in the body changes the page many times a second: a cheap look at its fields first (refresh(false)).
    this.unobserve = deps.content.observeChanges((change) => {
      const id = this.pageId;
      if (!id) return;
      if (change.pages.has(id)) this.refresh(false);
      else if (this.ancestorsOf(id).some((a) => change.pages.has(a))) this.refresh(true);
    });
    this.unfollowTree = deps.tree.onChange(() => this.refresh(true));
    this.element.hidden = true;
  }

  /** Shows `pageId` (undefined: nothing, the page view shows its empty state). */
  show(pageId: string | undefined): void {
    this.pageId = pageId;
    this.meta = undefined;
    this.slugMessage.textContent = '';
    this.refresh(true);
  }

  /** Stops following the document. */
  destroy(): void {
    this.unobserve();
    this.unfollowTree();
  }

  /** Re-reads the page; `structure`: the tree changed too (breadcrumbs). Fields being edited keep the writer's text. */
  private refresh(structure: boolean): void {
    const doc = this.deps.content.ydoc;
    const before = this.meta;
    if (!structure && before && this.pageId) {
      const quick = readPageMeta(doc, this.pageId, { path: false });
      if (quick && sameMeta(before, { ...quick, ...(before.path !== undefined ? { path: before.path } : {}) })) return;
    }
    const meta = this.pageId ? readPageMeta(doc, this.pageId) : undefined;
    this.element.hidden = !meta;
    this.meta = meta;
    if (!meta) return;
    const editable = this.deps.editable();
    this.title.contentEditable = editable ? 'plaintext-only' : 'false';
    this.description.readOnly = !editable;
    this.slug.readOnly = !editable;
    this.emoji.disabled = !editable;
    this.hidden.disabled = !editable;
    if (document.activeElement !== this.title) this.title.textContent = meta.title;
    if (document.activeElement !== this.description) this.description.value = meta.description ?? '';
    if (document.activeElement !== this.slug) this.slug.value = meta.slug;
    replace(this.emoji, meta.emoji ? meta.emoji : icon('smile', { size: 22 }));
    this.emoji.classList.toggle('empty', !meta.emoji);
    this.emoji.setAttribute('aria-label', meta.emoji ? `Page icon ${meta.emoji}: change` : 'Add a page icon');
    this.emoji.title = meta.emoji ? 'Change the icon' : 'Add an icon';
    const parentPath = meta.path?.includes('/') ? meta.path.slice(0, meta.path.lastIndexOf('/') + 1) : '';
    this.slugPrefix.textContent = `/${parentPath}`;
    this.slug.parentElement!.hidden = meta.path === undefined;
    this.hidden.setAttribute('aria-checked', String(meta.hidden));
    this.hidden.classList.toggle('on', meta.hidden);
    replace(
      this.hidden,
      icon(meta.hidden ? 'eye-off' : 'eye', { size: 14 }),
      meta.hidden ? 'Hidden from site' : 'Hide from site',
    );
    this.hidden.title = meta.hidden
      ? 'Hidden: not listed on the published site. Click to show it'
      : 'Hide this page from the published site';
    this.renderCrumbs(meta);
  }

  /** The page's ancestors, top-level first. */
  private ancestorsOf(id: string): string[] {
    const ancestors: string[] = [];
    for (let up = this.deps.tree.parentOf(id); up !== null && !ancestors.includes(up); up = this.deps.tree.parentOf(up))
      ancestors.unshift(up);
    return ancestors;
  }

  private renderCrumbs(meta: PageMeta): void {
    const ancestors = this.ancestorsOf(meta.id);
    replace(
      this.crumbs,
      ...ancestors.map((id) => {
        const entry = this.deps.tree.entry(id);
        const label = `${entry?.emoji ? `${entry.emoji} ` : ''}${entry?.title ?? 'Untitled'}`;
        return h(
          'li',
          {},
          h(
            'button',
            { type: 'button', class: 'ph-crumb link', 'data-testid': 'breadcrumb', onclick: () => this.deps.open(id) },
            label,
          ),
          icon('chevron-right', { size: 14, class: 'ph-crumb-sep' }),
        );
      }),
      h('li', { 'aria-current': 'page', class: 'ph-crumb-current' }, meta.title),
    );
  }

  private wireTitle(): void {
    const commit = () => {
      const id = this.pageId;
      const text = (this.title.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (!id || !this.meta) return;
      if (text === '') this.title.textContent = this.meta.title;
      else if (text !== this.meta.title) attempt(() => this.deps.content.updatePage(id, { title: text }));
    };
    this.title.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        this.title.blur();
      } else if (event.key === 'Escape') {
        this.title.textContent = this.meta?.title ?? '';
        this.title.blur();
      }
    });
    this.title.addEventListener('blur', commit);
  }

  private wireDescription(): void {
    const commit = () => {
      const id = this.pageId;
      const text = this.description.value.replace(/\s+/g, ' ').trim();
      if (id && this.meta && text !== (this.meta.description ?? ''))
        attempt(() => this.deps.content.updatePage(id, { description: text === '' ? null : text }));
    };
    this.description.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.description.blur();
      else if (event.key === 'Escape') {
        this.description.value = this.meta?.description ?? '';
        this.description.blur();
      }
    });
    this.description.addEventListener('blur', commit);
  }

  private wireSlug(): void {
    const validate = () => {
      if (!this.pageId || !this.meta) return undefined;
      const check = checkSlug(this.deps.content, this.pageId, this.slug.value);
      this.slug.setAttribute('aria-invalid', String(!check.ok));
      if (!check.ok) this.slugMessage.textContent = check.message;
      else if (check.slug !== this.slug.value.trim()) this.slugMessage.textContent = `Saved as “${check.slug}”`;
      else this.slugMessage.textContent = '';
      return check;
    };
    this.slug.addEventListener('input', validate);
    this.slug.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.slug.blur();
      else if (event.key === 'Escape') {
        this.slug.value = this.meta?.slug ?? '';
        this.slug.blur();
      }
    });
    this.slug.addEventListener('blur', () => {
      const id = this.pageId;
      const check = validate();
      if (!id || !this.meta || !check) return;
      if (!check.ok) {
        // Keep the page's address valid: back to the stored slug, the reason stays on screen.
        this.slug.value = this.meta.slug;
        this.slug.setAttribute('aria-invalid', 'false');
        return;
      }
      if (check.slug !== this.meta.slug) {
        const old = this.meta.path;
        if (attempt(() => changeSlug(this.deps.content, id, check.slug)) !== undefined)
          this.slugMessage.textContent = old ? `Moved from /${old}: the old address redirects here` : '';
      }
      this.slug.value = check.slug;
      this.refresh(true);
    });
  }

  private menuItems(): MenuItem[] {
    const id = this.pageId;
    if (!id || !this.meta) return [];
    const title = this.meta.title;
    const { content } = this.deps;
    const editable = this.deps.editable();
    const duplicate: MenuItem = {
      label: 'Duplicate',
      icon: 'copy',
      testid: 'action-duplicate',
      run: () => {
        const copy = attempt(() => duplicatePage(content, id));
        if (copy) this.deps.open(copy);
      },
    };
    const move: MenuItem = {
      label: 'Move to…',
      icon: 'folder',
      testid: 'action-move',
      run: () =>
        void moveDialog(this.deps.tree, id, title).then((to) => {
          if (to) movePage(content, id, { parent: to.parent });
        }),
    };
    const copyLink: MenuItem = {
      label: 'Copy link',
      icon: 'link',
      testid: 'action-copy-link',
      run: () => void this.copyLink(),
    };
    const remove: MenuItem = {
      label: 'Delete',
      icon: 'trash',
      testid: 'action-delete',
      danger: true,
      run: () => {
        // Land on the parent, as GitBook does (at the top level the workspace opens the first page).
        const parent = this.deps.tree.parentOf(id);
        void deletePageInteractive(content, id, { confirm: false, restored: () => this.deps.open(id) }).then(
          (deleted) => deleted && parent !== null && this.deps.open(parent),
        );
      },
    };
    return editable ? [duplicate, move, copyLink, remove] : [copyLink];
  }

  /** Copies the page's app link (`urls.app` form: `/app/s/<space>/<page path>`). */
  private async copyLink(): Promise<void> {
    if (!this.meta) return;
    const link = `${this.deps.appBase()}/${this.meta.path ?? `~/page/${this.meta.id}`}`;
    try {
      await navigator.clipboard.writeText(link);
      toast('Link copied');
    } catch {
      // No clipboard (insecure origin, denied permission): show the link to copy by hand.
      toast(link);
    }
  }
}

function sameMeta(a: PageMeta, b: PageMeta): boolean {
  return (
    a.id === b.id &&
    a.title === b.title &&
    a.emoji === b.emoji &&
    a.slug === b.slug &&
    a.description === b.description &&
    a.hidden === b.hidden &&
    a.path === b.path
  );
}
