import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { useApp } from '../screens/context';
import { languageName } from '../../../shared/languages';
import { documentFromText } from './instructions-document';
import { translationStores } from './translation-stores';
import type { Translation } from './translations-api';

/** The hint under every instructions field (the add form's too). */
export const INSTRUCTIONS_HINT =
  'Plain text, one instruction per line: tone, terms to keep in the source language, how to address readers. The next run follows them.';

/**
 * Editing a translation's instructions in place (plain text, saved as GitBook's JSONDocument, one
 * paragraph per line). The next run follows them; pages already translated change when they do.
 */
export function InstructionsEditor(props: {
  translation: Translation;
  orgId: string;
  initial: string;
  done: () => void;
}) {
  const { translation: t } = props;
  const app = useApp();
  const [text, setText] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  const id = `translation-${t.id}-instructions`;
  useEffect(() => field.current?.focus(), []);

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await translationStores(app.session.api).setInstructions(props.orgId, t.id, documentFromText(text));
      props.done();
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };

  return (
    <form
      class="tr-instructions-form"
      aria-label={`Instructions of the ${languageName(t.language)} translation`}
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => {
        // Escape leaves the editor, not the whole dialog.
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          props.done();
        }
      }}
    >
      <label for={id} class="tr-field-label">
        Instructions for the {languageName(t.language)} translation
      </label>
      <textarea
        ref={field}
        id={id}
        rows={4}
        value={text}
        aria-describedby={`${id}-hint`}
        data-testid="translation-instructions-input"
        onInput={(event) => {
          setText(event.currentTarget.value);
          if (error) setError('');
        }}
      />
      <p class="tr-hint" id={`${id}-hint`}>
        {INSTRUCTIONS_HINT}
      </p>
      <p class="form-message" role="alert" data-testid="translation-instructions-error">
        {error}
      </p>
      <div class="tr-form-actions">
        <button type="button" class="small" onClick={() => props.done()}>
          Cancel
        </button>
        <button
          type="submit"
          class="small primary"
          disabled={busy}
          aria-busy={busy}
          data-testid="translation-instructions-save"
        >
          Save instructions
        </button>
      </div>
    </form>
  );
}
