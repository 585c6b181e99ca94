import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { useApp } from '../screens/context';
import { Icon } from '../ui/kit/icon';
import { languageName } from '../../../shared/languages';
import { documentFromText, isEmptyDocument } from './instructions-document';
import { INSTRUCTIONS_HINT } from './instructions-editor';
import { engineName, languageChoices, languageLabel } from './translation-model';
import { translationStores } from './translation-stores';
import type { TranslationEngine } from './translations-api';

/**
 * "Add a language": the language to translate into (all but the space's own and those it already
 * has), the space's own language when the space does not say it, optional instructions, and the
 * button that creates the translation (the server queues its first run; the list above follows it).
 * What the server's engine cannot do is said before anything is sent.
 */
export function AddLanguageForm(props: {
  orgId: string;
  spaceId: string;
  /** The space's language (undefined: the space does not say; the form asks). */
  sourceLanguage: string | undefined;
  /** Languages the space is already translated into. */
  taken: string[];
  engine: TranslationEngine | null | undefined;
}) {
  const app = useApp();
  const [language, setLanguage] = useState('');
  const [source, setSource] = useState(props.sourceLanguage ?? 'en');
  const [instructions, setInstructions] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');
  // Open at once on a space without translations; otherwise one button under the list, until asked.
  const [open, setOpen] = useState(props.taken.length === 0);
  const picker = useRef<HTMLSelectElement>(null);
  const opened = useRef(open);
  useEffect(() => {
    if (open && !opened.current) picker.current?.focus();
    opened.current = open;
  }, [open]);
  const from = props.sourceLanguage ?? source;
  const choices = languageChoices([from, ...props.taken]);
  const canInstruct = props.engine?.instructions !== false;

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaid('');
    if (!language || language === from || props.taken.includes(language)) {
      setError('Choose the language to translate into.');
      return;
    }
    const doc = documentFromText(canInstruct ? instructions : '');
    setBusy(true);
    setError('');
    try {
      await translationStores(app.session.api).create(props.orgId, {
        language,
        source: { space: props.spaceId, language: from },
        ...(isEmptyDocument(doc) ? {} : { instructions: doc }),
      });
      setSaid(
        props.engine === null
          ? `${languageName(language)} added. Its first run will fail until the server has a translation engine.`
          : `${languageName(language)} added: its first run is queued.`,
      );
      setLanguage('');
      setInstructions('');
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  if (!open)
    return (
      <div class="tr-add-closed">
        <button type="button" data-testid="translation-add-open" onClick={() => setOpen(true)}>
          <Icon name="plus" />
          Add a language
        </button>
      </div>
    );

  return (
    <form
      class="tr-add"
      aria-labelledby="tr-add-heading"
      data-testid="translation-add"
      onSubmit={(event) => void submit(event)}
      onInput={() => error && setError('')}
    >
      <h3 id="tr-add-heading" class="tr-add-heading">
        Add a language
      </h3>
      <div class="tr-add-row">
        {!props.sourceLanguage && (
          <div class="tr-field">
            <label for="tr-add-source" class="tr-field-label">
              This space is written in
            </label>
            <select
              id="tr-add-source"
              data-testid="translation-source-language"
              onChange={(event) => setSource(event.currentTarget.value)}
            >
              {languageChoices([]).map((choice) => (
                <option key={choice.code} value={choice.code} selected={choice.code === source}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
        )}
        <div class="tr-field">
          <label for="tr-add-language" class="tr-field-label">
            Translate into
          </label>
          {/* `selected` on the options, not `value` on the select: the options change as languages are added. */}
          <select
            ref={picker}
            id="tr-add-language"
            required
            aria-describedby="tr-add-language-hint"
            data-testid="translation-language"
            onChange={(event) => {
              setLanguage(event.currentTarget.value);
              setSaid('');
            }}
          >
            <option value="" selected={language === ''}>
              Choose a language…
            </option>
            {choices.map((choice) => (
              <option key={choice.code} value={choice.code} selected={choice.code === language}>
                {choice.label}
              </option>
            ))}
          </select>
          <p class="tr-hint" id="tr-add-language-hint">
            From {languageLabel(from)}. The translated space is a new space of the organization, next to this one.
          </p>
        </div>
      </div>
      <div class="tr-field">
        <label for="tr-add-instructions" class="tr-field-label">
          Instructions <span class="tr-optional">(optional)</span>
        </label>
        <textarea
          id="tr-add-instructions"
          rows={3}
          value={instructions}
          disabled={!canInstruct}
          placeholder={canInstruct ? 'For example: Keep product names in English.' : undefined}
          aria-describedby="tr-add-instructions-hint"
          data-testid="translation-instructions-new"
          onInput={(event) => setInstructions(event.currentTarget.value)}
        />
        <p class="tr-hint" id="tr-add-instructions-hint" data-testid="translation-instructions-hint">
          {canInstruct
            ? INSTRUCTIONS_HINT
            : `${props.engine ? engineName(props.engine) : 'This server’s engine'} cannot follow instructions: translations run without them.`}
        </p>
      </div>
      {props.engine === null && (
        <p class="warning-note" data-testid="translation-add-no-engine">
          <Icon name="triangle-alert" class="warning-note-icon" />
          <span>No translation engine is configured on this server: the new translation’s runs fail until one is.</span>
        </p>
      )}
      <p class="form-message" role="alert" data-testid="translation-add-error">
        {error}
      </p>
      <div class="tr-form-actions">
        <p class="tr-said" role="status" data-testid="translation-add-said">
          {said}
        </p>
        <button type="submit" class="primary" disabled={busy} aria-busy={busy} data-testid="translation-create">
          <Icon name="plus" />
          Add language
        </button>
      </div>
    </form>
  );
}
