import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import { duplicatePage } from '../../../shared/doc/duplicate-page';
import { changeSlug, checkSlug, readPageMeta, type PageMeta } from '../../../shared/doc/page-meta';
import { attempt, deletePageInteractive, movePage } from '../tree/tree-actions';
import type { TreeModel } from '../tree/tree-model';
import { Icon } from '../ui/kit/icon';
import { MenuButton, type MenuItem } from '../ui/kit/menu';
import { toast } from '../ui/toast';
import { EmojiPicker } from './emoji-picker';
import { moveDialog } from './move-dialog';
import './page-header.css';

/** What the header needs from the workspace. */
export interface PageHeaderProps {
  content: ContentDoc;
  tree: TreeModel;
  /** The page shown (the workspace keys the header by it, so every field starts fresh on another page). */
  pageId: string;
  open(pageId: string): void;
  /** The app URL prefix of this space (or change request), e.g. `https://host/app/s/<spaceId>`. */
  appBase(): string;
  /** Whether the document may be edited (false when the server refused write access). */
  editable: boolean;
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
export function PageHeader(props: PageHeaderProps) {
  const { content, tree, pageId, editable } = props;
  const meta = usePageMeta(content, tree, pageId);
  const [picking, setPicking] = useState(false);
  const emojiButton = useRef<HTMLButtonElement>(null);
  if (!meta) return null;
  const ancestors = ancestorsOf(tree, pageId);
  const parentPath = meta.path?.includes('/') ? meta.path.slice(0, meta.path.lastIndexOf('/') + 1) : '';
  const update = (fields: Parameters<ContentDoc['updatePage']>[1]) => attempt(() => content.updatePage(pageId, fields));
  return (
    <div class="page-head" data-testid="page-head">
      <div class="ph-bar">
        <nav class="ph-crumbs" aria-label="Breadcrumb" data-testid="breadcrumbs">
          <ol class="ph-crumb-list">
            {ancestors.map((id) => {
              const entry = tree.entry(id);
              return (
                <li key={id}>
                  <button type="button" class="ph-crumb link" data-testid="breadcrumb" onClick={() => props.open(id)}>
                    {`${entry?.emoji ? `${entry.emoji} ` : ''}${entry?.title ?? 'Untitled'}`}
                  </button>
                  <Icon name="chevron-right" size={14} class="ph-crumb-sep" />
                </li>
              );
            })}
            <li aria-current="page" class="ph-crumb-current">
              {meta.title}
            </li>
          </ol>
        </nav>
        <MenuButton
          label="Page actions"
          testid="page-actions"
          class="ph-icon-button"
          items={() => pageActions(props, meta)}
        />
      </div>
      <div class="ph-main">
        <span class="ph-emoji-anchor">
          <button
            ref={emojiButton}
            type="button"
            class={`ph-emoji${meta.emoji ? '' : ' empty'}`}
            aria-haspopup="dialog"
            aria-expanded={picking ? 'true' : 'false'}
            aria-label={meta.emoji ? `Page icon ${meta.emoji}: change` : 'Add a page icon'}
            title={meta.emoji ? 'Change the icon' : 'Add an icon'}
            data-testid="page-emoji"
            disabled={!editable}
            onClick={() => setPicking(!picking)}
          >
            {meta.emoji ? meta.emoji : <Icon name="smile" size={22} />}
          </button>
          {picking && (
            <EmojiPicker
              current={meta.emoji}
              anchor={emojiButton}
              pick={(emoji) => update({ emoji })}
              close={(restoreFocus) => {
                setPicking(false);
                if (restoreFocus) emojiButton.current?.focus();
              }}
            />
          )}
        </span>
        <PageTitle title={meta.title} editable={editable} rename={(title) => update({ title })} />
      </div>
      <TextField
        class="ph-description"
        placeholder="Add a description"
        label="Page description"
        maxLength={500}
        testid="page-description"
        value={meta.description ?? ''}
        readOnly={!editable}
        commit={(text) => {
          const clean = text.replace(/\s+/g, ' ').trim();
          if (clean !== (meta.description ?? '')) update({ description: clean === '' ? null : clean });
        }}
      />
      <div class="ph-meta">
        <SlugField content={content} meta={meta} editable={editable} parentPath={parentPath} />
        <span class="spacer" />
        <button
          type="button"
          role="switch"
          class={`ph-hidden ghost small${meta.hidden ? ' on' : ''}`}
          aria-checked={meta.hidden ? 'true' : 'false'}
          data-testid="toggle-hidden"
          disabled={!editable}
          title={
            meta.hidden
              ? 'Hidden: not listed on the published site. Click to show it'
              : 'Hide this page from the published site'
          }
          onClick={() => update({ hidden: !meta.hidden })}
        >
          <Icon name={meta.hidden ? 'eye-off' : 'eye'} size={14} />
          {meta.hidden ? 'Hidden from site' : 'Hide from site'}
        </button>
      </div>
    </div>
  );
}

/**
 * The page's fields, re-read when they or the tree change. Typing in the body changes the page
 * many times a second: a cheap look at its fields first (no path), and no re-render when equal.
 */
function usePageMeta(content: ContentDoc, tree: TreeModel, pageId: string): PageMeta | undefined {
  const [meta, setMeta] = useState(() => readPageMeta(content.ydoc, pageId));
  const shown = useRef(meta);
  shown.current = meta;
  useEffect(() => {
    const reread = (structure: boolean) => {
      const before = shown.current;
      if (!structure && before) {
        const quick = readPageMeta(content.ydoc, pageId, { path: false });
        if (quick && sameMeta(before, { ...quick, ...(before.path !== undefined ? { path: before.path } : {}) }))
          return;
      }
      const next = readPageMeta(content.ydoc, pageId);
      if (!(before && next && sameMeta(before, next)) || structure) setMeta(next);
    };
    reread(true);
    const unobserve = content.observeChanges((change) => {
      if (change.pages.has(pageId)) reread(false);
      else if (ancestorsOf(tree, pageId).some((a) => change.pages.has(a))) reread(true);
    });
    const unfollow = tree.onChange(() => reread(true));
    return () => {
      unobserve();
      unfollow();
    };
  }, [content, tree, pageId]);
  return meta;
}

/** The editable title: an h1 edited in place; Enter saves, Escape cancels, an empty title is refused. */
function PageTitle(props: { title: string; editable: boolean; rename: (title: string) => void }) {
  const el = useRef<HTMLHeadingElement>(null);
  // The text is set here, not rendered: the writer's own typing must not be replaced by a render.
  useLayoutEffect(() => {
    if (el.current && document.activeElement !== el.current) el.current.textContent = props.title;
  }, [props.title]);
  return (
    <h1
      ref={el}
      class="page-title ph-title"
      data-testid="page-title"
      spellcheck
      contentEditable={(props.editable ? 'plaintext-only' : 'false') as unknown as boolean}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          event.currentTarget.blur();
        } else if (event.key === 'Escape') {
          event.currentTarget.textContent = props.title;
          event.currentTarget.blur();
        }
      }}
      onBlur={(event) => {
        const text = (event.currentTarget.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (text === '') event.currentTarget.textContent = props.title;
        else if (text !== props.title) props.rename(text);
      }}
    />
  );
}

/**
 * A one-line field that edits a stored value: while focused it keeps what the writer types
 * (remote edits wait), Enter or leaving saves, Escape restores the stored value.
 */
function TextField(props: {
  class: string;
  placeholder?: string;
  label: string;
  maxLength?: number;
  testid: string;
  value: string;
  readOnly: boolean;
  commit: (text: string) => void;
}) {
  const [draft, setDraft] = useState<string>();
  const cancelled = useRef(false);
  return (
    <input
      type="text"
      class={props.class}
      placeholder={props.placeholder}
      aria-label={props.label}
      maxLength={props.maxLength}
      data-testid={props.testid}
      readOnly={props.readOnly}
      value={draft ?? props.value}
      onFocus={() => setDraft(props.value)}
      onInput={(event) => setDraft(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.currentTarget.blur();
        else if (event.key === 'Escape') {
          cancelled.current = true;
          event.currentTarget.blur();
        }
      }}
      onBlur={(event) => {
        const text = event.currentTarget.value;
        setDraft(undefined);
        if (cancelled.current) cancelled.current = false;
        else props.commit(text);
      }}
    />
  );
}

/** The page's address with its editable last part: validated as typed, the old address keeps resolving. */
function SlugField(props: { content: ContentDoc; meta: PageMeta; editable: boolean; parentPath: string }) {
  const { content, meta } = props;
  const [draft, setDraft] = useState<string>();
  const [message, setMessage] = useState('');
  const [invalid, setInvalid] = useState(false);
  const cancelled = useRef(false);
  const validate = (value: string) => {
    const check = checkSlug(content, meta.id, value);
    setInvalid(!check.ok);
    if (!check.ok) setMessage(check.message);
    else if (check.slug !== value.trim()) setMessage(`Saved as “${check.slug}”`);
    else setMessage('');
    return check;
  };
  const save = (value: string) => {
    const check = validate(value);
    // Refused: the page keeps its valid address, the reason stays on screen.
    if (!check.ok) return setInvalid(false);
    if (check.slug === meta.slug) return;
    const old = meta.path;
    if (attempt(() => changeSlug(content, meta.id, check.slug)) !== undefined)
      setMessage(old ? `Moved from /${old}: the old address redirects here` : '');
  };
  return (
    <>
      <label
        class="ph-path"
        title="The page’s address: edit its last part (the old address keeps working)"
        hidden={meta.path === undefined}
      >
        <Icon name="link" size={14} />
        <span class="ph-slug-prefix">/{props.parentPath}</span>
        <input
          type="text"
          class="ph-slug"
          aria-label="Page slug (last part of its address)"
          aria-describedby="ph-slug-message"
          aria-invalid={invalid ? 'true' : 'false'}
          spellcheck={false}
          autocomplete="off"
          data-testid="page-slug"
          readOnly={!props.editable}
          value={draft ?? meta.slug}
          onFocus={() => setDraft(meta.slug)}
          onInput={(event) => {
            setDraft(event.currentTarget.value);
            validate(event.currentTarget.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.blur();
            else if (event.key === 'Escape') {
              cancelled.current = true;
              event.currentTarget.blur();
            }
          }}
          onBlur={(event) => {
            const value = event.currentTarget.value;
            setDraft(undefined);
            if (cancelled.current) {
              cancelled.current = false;
              setMessage('');
              setInvalid(false);
            } else save(value);
          }}
        />
      </label>
      <span id="ph-slug-message" class="ph-slug-message" aria-live="polite" data-testid="page-slug-message">
        {message}
      </span>
    </>
  );
}

/** The page's ancestors, top-level first. */
function ancestorsOf(tree: TreeModel, id: string): string[] {
  const ancestors: string[] = [];
  for (let up = tree.parentOf(id); up !== null && !ancestors.includes(up); up = tree.parentOf(up))
    ancestors.unshift(up);
  return ancestors;
}

/** The actions menu's items (read-only: only "Copy link"). */
function pageActions(props: PageHeaderProps, meta: PageMeta): MenuItem[] {
  const { content, tree, pageId: id } = props;
  const copyLink: MenuItem = {
    label: 'Copy link',
    icon: 'link',
    testid: 'action-copy-link',
    run: () => void copyPageLink(`${props.appBase()}/${meta.path ?? `~/page/${meta.id}`}`),
  };
  if (!props.editable) return [copyLink];
  return [
    {
      label: 'Duplicate',
      icon: 'copy',
      testid: 'action-duplicate',
      run: () => {
        const copy = attempt(() => duplicatePage(content, id));
        if (copy) props.open(copy);
      },
    },
    {
      label: 'Move to…',
      icon: 'folder',
      testid: 'action-move',
      run: () =>
        void moveDialog(tree, id, meta.title).then((to) => {
          if (to) movePage(content, id, { parent: to.parent });
        }),
    },
    copyLink,
    {
      label: 'Delete',
      icon: 'trash',
      testid: 'action-delete',
      danger: true,
      run: () => {
        // Land on the parent, as GitBook does (at the top level the workspace opens the first page).
        const parent = tree.parentOf(id);
        void deletePageInteractive(content, id, { confirm: false, restored: () => props.open(id) }).then(
          (deleted) => deleted && parent !== null && props.open(parent),
        );
      },
    },
  ];
}

/** Copies the page's app link (`urls.app` form: `/app/s/<space>/<page path>`). */
async function copyPageLink(link: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(link);
    toast('Link copied');
  } catch {
    // No clipboard (insecure origin, denied permission): show the link to copy by hand.
    toast(link);
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
