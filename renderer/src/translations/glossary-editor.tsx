import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { useApp } from '../screens/context';
import { ErrorState, Loading } from '../ui/kit/async-section';
import { Icon } from '../ui/kit/icon';
import { useResource } from '../ui/kit/hooks';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import {
  checkRows,
  glossaryLanguages,
  newRow,
  operationsFor,
  rowsFrom,
  type GlossaryProblems,
  type GlossaryRow,
} from './glossary-model';
import { GlossaryTable } from './glossary-table';
import './glossary.css';
import { languageChoices } from './translation-model';
import { translationStores } from './translation-stores';
import { changeGlossary, listGlossary, type GlossaryEntry, type Translation } from './translations-api';

/**
 * The organization's glossary: terms every translation keeps as given (a product name, a term of
 * the trade), in a table with one column per language in use (this space's, then its translations',
 * then the organization's others). Edits stay a draft until "Save glossary", which checks every term
 * first (1 to 255 characters, one line) and sends them as one PUT of operations; a refusal shows
 * here, with the draft kept. Those who may not change it read it.
 */
export function GlossaryEditor(props: {
  orgId: string;
  spaceId: string;
  sourceLanguage: string | undefined;
  manage: boolean;
  onDirty: (dirty: boolean) => void;
}) {
  const { orgId } = props;
  const app = useApp();
  const stores = translationStores(app.session.api);
  const { state, retry } = useRevalidatedResource(stores.glossary, orgId);
  const translations = useResource(stores.list, orgId).state;
  const entries = 'data' in state ? state.data : undefined;
  const all = 'data' in translations ? (translations.data ?? []) : [];
  if (!entries)
    return state.status === 'error' ? (
      <ErrorState message={`Could not load the glossary: ${describeError(state.error)}`} retry={retry} />
    ) : (
      <Loading what="the glossary" />
    );
  return (
    <GlossaryDraft
      {...props}
      entries={entries}
      inUse={languagesInUse(props.spaceId, props.sourceLanguage, all)}
      save={async (rows) => {
        await changeGlossary(app.session.api, orgId, operationsFor(rows));
        const fresh = await listGlossary(app.session.api, orgId);
        stores.glossary.set(orgId, fresh);
        return fresh;
      }}
    />
  );
}

/** This space's language and its translations' first, then the organization's other translations'. */
function languagesInUse(spaceId: string, source: string | undefined, all: Translation[]): string[] {
  const mine = all.filter((t) => t.source.space === spaceId);
  const codes = [source ?? mine[0]?.source.language ?? 'en', ...mine.map((t) => t.language)];
  for (const t of all) codes.push(t.source.language, t.language);
  return [...new Set(codes)];
}

function GlossaryDraft(props: {
  entries: GlossaryEntry[];
  inUse: string[];
  manage: boolean;
  onDirty: (dirty: boolean) => void;
  save: (rows: GlossaryRow[]) => Promise<GlossaryEntry[]>;
}) {
  const [rows, setRows] = useState(() => rowsFrom(props.entries, props.inUse[0]));
  const [added, setAdded] = useState<string[]>([]);
  const [problems, setProblems] = useState<GlossaryProblems>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const dirty = operationsFor(rows).length > 0;
  const languages = glossaryLanguages([...props.inUse, ...added], rows);

  useEffect(() => props.onDirty(dirty), [dirty]);
  // Saved elsewhere (another window) while nothing is being edited here: show the server's copy.
  useEffect(() => {
    if (!dirty) setRows(rowsFrom(props.entries, props.inUse[0]));
  }, [props.entries]);

  const edit = (change: (rows: GlossaryRow[]) => GlossaryRow[]) => {
    setRows(change);
    setSaid('');
    setError('');
    setProblems(undefined);
  };

  const addRow = () => {
    const row = newRow();
    edit((old) => [...old, row]);
    // Focus the new row's first field once drawn, so typing can start at once.
    requestAnimationFrame(() =>
      root.current?.querySelector<HTMLInputElement>('tbody tr:last-child input:not(:disabled)')?.focus(),
    );
  };

  const save = async () => {
    const found = checkRows(rows);
    if (found.count) {
      setProblems(found);
      setError(
        found.count === 1 ? 'One term needs fixing before saving.' : `${found.count} terms need fixing before saving.`,
      );
      requestAnimationFrame(() => root.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    setError('');
    try {
      const fresh = await props.save(rows);
      setRows(rowsFrom(fresh, props.inUse[0]));
      setSaid('Glossary saved.');
    } catch (err) {
      setError(`Could not save the glossary: ${describeError(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="tr-glossary" ref={root} data-testid="glossary" data-manage={props.manage ? 'true' : 'false'}>
      <p class="tr-hint">
        Terms every translation of the organization uses as given here: product names, words of your trade.
        {props.manage ? ' Leave a cell empty when a language has no fixed term.' : ''}
      </p>
      {rows.length === 0 && !props.manage ? (
        <p class="tr-empty" data-testid="glossary-empty">
          The glossary is empty.
        </p>
      ) : (
        <GlossaryTable
          languages={languages}
          rows={rows}
          editable={props.manage}
          problems={problems}
          change={(key, code, text) =>
            edit((old) => old.map((r) => (r.key === key ? { ...r, terms: { ...r.terms, [code]: text } } : r)))
          }
          toggleDeleted={(key) =>
            edit((old) =>
              old.flatMap((r) => {
                if (r.key !== key) return [r];
                // A new row is simply removed; a saved one is marked, and deleted on save.
                return r.id ? [{ ...r, deleted: !r.deleted }] : [];
              }),
            )
          }
        />
      )}
      {props.manage && rows.length === 0 && (
        <p class="tr-empty" data-testid="glossary-empty">
          No terms yet.
        </p>
      )}
      {props.manage && (
        <>
          <div class="tr-glossary-tools">
            <button type="button" class="small" data-testid="glossary-add-row" onClick={addRow}>
              <Icon name="plus" />
              Add term
            </button>
            <label class="tr-inline-field">
              <span>Add a language column</span>
              <select
                value=""
                data-testid="glossary-add-language"
                onChange={(event) => {
                  const code = event.currentTarget.value;
                  if (code) setAdded((old) => [...old, code]);
                }}
              >
                <option value="">Choose…</option>
                {languageChoices(languages).map((choice) => (
                  <option key={choice.code} value={choice.code}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <p class="form-message" role="alert" data-testid="glossary-error">
            {error}
          </p>
          <div class="tr-form-actions">
            <p class="tr-said" role="status" data-testid="glossary-said">
              {said}
            </p>
            <button
              type="button"
              class="small"
              disabled={!dirty || busy}
              data-testid="glossary-discard"
              onClick={() => edit(() => rowsFrom(props.entries, props.inUse[0]))}
            >
              Discard changes
            </button>
            <button
              type="button"
              class="primary"
              disabled={!dirty || busy}
              aria-busy={busy}
              data-testid="glossary-save"
              onClick={() => void save()}
            >
              Save glossary
            </button>
          </div>
        </>
      )}
    </div>
  );
}
