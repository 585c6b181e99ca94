import { languageName, nativeLanguageName } from '../../../shared/languages';
import { Icon } from '../ui/kit/icon';
import { termError, type GlossaryProblems, type GlossaryRow } from './glossary-model';

/**
 * The glossary as a table: one row per term, one column per language. Editable, each cell is a
 * labelled one-line field whose problem (too long, a line break) shows under it as it is typed;
 * a row is deleted (struck through, with Undo) until the glossary is saved. Read-only, the terms
 * as text. On a phone each row becomes a card of labelled fields (translations.css).
 */
export function GlossaryTable(props: {
  languages: string[];
  rows: GlossaryRow[];
  editable: boolean;
  /** The problems found by the last save attempt (row-level ones; cell ones are checked live). */
  problems: GlossaryProblems | undefined;
  change: (key: string, language: string, text: string) => void;
  toggleDeleted: (key: string) => void;
}) {
  const { languages, rows, editable } = props;
  return (
    <div class="tr-glossary-scroll">
      <table class="tr-glossary-table" data-testid="glossary-table">
        <caption class="sr-only">Glossary terms, one column per language</caption>
        <thead>
          <tr>
            {languages.map((code) => (
              <th key={code} scope="col" lang={code}>
                {nativeLanguageName(code)}
                {nativeLanguageName(code) !== languageName(code) && ' '}
                {nativeLanguageName(code) !== languageName(code) && (
                  <span class="tr-th-english" lang="en">
                    {languageName(code)}
                  </span>
                )}
              </th>
            ))}
            {editable && (
              <th scope="col" class="tr-glossary-actions">
                <span class="sr-only">Row actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const rowError = props.problems?.rows.get(row.key);
            const rowErrorId = `glossary-${row.key}-error`;
            return (
              <tr
                key={row.key}
                class={row.deleted ? 'tr-row-deleted' : undefined}
                data-testid="glossary-row"
                data-entry={row.id ?? ''}
              >
                {languages.map((code) => {
                  const text = row.terms[code] ?? '';
                  if (!editable)
                    return (
                      <td key={code} data-label={languageName(code)} lang={code}>
                        {text || <span class="tr-none">—</span>}
                      </td>
                    );
                  const error = row.deleted ? undefined : termError(text);
                  const errorId = `glossary-${row.key}-${code}-error`;
                  const describedBy = [error ? errorId : '', rowError ? rowErrorId : ''].filter(Boolean).join(' ');
                  return (
                    <td key={code} data-label={languageName(code)}>
                      <input
                        type="text"
                        value={text}
                        lang={code}
                        disabled={row.deleted}
                        aria-label={`${languageName(code)} term, row ${index + 1}`}
                        aria-invalid={error || rowError ? 'true' : undefined}
                        aria-describedby={describedBy || undefined}
                        data-testid={`glossary-cell-${code}`}
                        onInput={(event) => props.change(row.key, code, event.currentTarget.value)}
                      />
                      {error && (
                        <span class="tr-cell-error" id={errorId} data-testid="glossary-cell-error">
                          {error}
                        </span>
                      )}
                    </td>
                  );
                })}
                {editable && (
                  <td class="tr-glossary-actions">
                    <button
                      type="button"
                      class={row.deleted ? 'small' : 'icon-button'}
                      aria-label={row.deleted ? `Undo the deletion of row ${index + 1}` : `Delete row ${index + 1}`}
                      title={row.deleted ? undefined : 'Delete this row'}
                      data-testid={row.deleted ? 'glossary-undo-delete' : 'glossary-delete-row'}
                      onClick={() => props.toggleDeleted(row.key)}
                    >
                      {row.deleted ? 'Undo' : <Icon name="trash" />}
                    </button>
                    {rowError && (
                      <span class="tr-cell-error tr-row-error" id={rowErrorId} data-testid="glossary-row-error">
                        {rowError}
                      </span>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
