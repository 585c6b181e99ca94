import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../api/client';
import type { SpaceSummary } from '../org/org-api';
import type { Stores } from '../stores/stores';
import { AsyncSection } from '../ui/kit/async-section';
import { openDialog } from '../ui/kit/dialog';
import { Field } from '../ui/kit/field';
import { FormDialog, FormError } from '../ui/kit/form-dialog';
import { useResource } from '../ui/kit/hooks';
import { toast } from '../ui/toast';
import { applyTemplate, type SpaceTemplate } from './templates-api';
import './new-space-dialog.css';

/**
 * "New space": a title, and what to start from: a blank space or one of the server's templates
 * (each shown with the pages it adds). `create` makes the space (the caller knows where: an
 * organization, a collection); the template is then applied to it. Resolves with the new space,
 * or undefined when cancelled.
 */
export function newSpaceDialog(
  stores: Stores,
  options: { heading: string; create: (title: string) => Promise<SpaceSummary> },
): Promise<SpaceSummary | undefined> {
  return openDialog<SpaceSummary | undefined>((close) => (
    <NewSpaceForm stores={stores} heading={options.heading} create={options.create} close={close} />
  ));
}

const BLANK = '';

function NewSpaceForm(props: {
  stores: Stores;
  heading: string;
  create: (title: string) => Promise<SpaceSummary>;
  close: (space: SpaceSummary | undefined) => void;
}) {
  const [title, setTitle] = useState('');
  const [chosen, setChosen] = useState(BLANK);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const { state, retry } = useResource(props.stores.templates, 'all');
  const templates = state.status === 'ready' ? state.data : [];
  const template = templates.find((t) => t.id === chosen);

  const submit = async () => {
    // An untitled space from a template takes the template's name, which is what it now holds.
    const name = title.trim() || template?.title;
    if (!name) throw new FormError('Give the space a title.');
    const space = await props.create(name);
    if (template) {
      try {
        await applyTemplate(props.stores.api, space.id, template.id);
      } catch (err) {
        // The space exists: open it anyway, and say what is missing.
        toast(`The space was created, but the template could not be added: ${describeError(err)}`, 'error');
      }
    }
    props.close(space);
  };

  return (
    <FormDialog
      title={props.heading}
      submitLabel="Create"
      onSubmit={submit}
      onClose={() => props.close(undefined)}
      testid="new-space-dialog"
      submitTestid="prompt-ok"
    >
      <Field label="Title">
        <input
          ref={input}
          type="text"
          value={title}
          maxLength={256}
          placeholder={template ? template.title : 'My space'}
          data-testid="prompt-input"
          onInput={(event) => setTitle(event.currentTarget.value)}
        />
      </Field>
      <fieldset class="template-chooser" data-testid="template-chooser">
        <legend>Start from a template</legend>
        <div class="template-options">
          <TemplateOption
            id={BLANK}
            title="Blank space"
            emoji="📄"
            description="An empty space: write your first page yourself."
            chosen={chosen}
            choose={setChosen}
          />
          <AsyncSection state={state} retry={retry} what="templates">
            {(list) => (
              <>
                {list.map((t) => (
                  <TemplateOption key={t.id} {...t} chosen={chosen} choose={setChosen} />
                ))}
              </>
            )}
          </AsyncSection>
        </div>
      </fieldset>
    </FormDialog>
  );
}

/** Page titles of the template's tree, one line: what the reader gets before choosing. */
const pageList = (pages: SpaceTemplate['pages']) =>
  pages.map((p) => (p.pages.length ? `${p.title} (${p.pages.map((c) => c.title).join(', ')})` : p.title)).join(' · ');

function TemplateOption(props: {
  id: string;
  title: string;
  emoji: string;
  description: string;
  pages?: SpaceTemplate['pages'];
  chosen: string;
  choose: (id: string) => void;
}) {
  const selected = props.chosen === props.id;
  const describedBy = `template-${props.id || 'blank'}-about`;
  return (
    <label
      class={`template-option${selected ? ' selected' : ''}`}
      data-testid="template-option"
      data-template={props.id}
    >
      <input
        type="radio"
        name="template"
        value={props.id}
        checked={selected}
        aria-describedby={describedBy}
        onChange={() => props.choose(props.id)}
      />
      <span class="template-emoji" aria-hidden="true">
        {props.emoji}
      </span>
      <span class="template-text">
        <span class="template-title">{props.title}</span>
        <span id={describedBy} class="template-about">
          <span class="template-description">{props.description}</span>
          {props.pages && <span class="template-pages">{pageList(props.pages)}</span>}
        </span>
      </span>
    </label>
  );
}
