import { nativeLanguageName } from '../../../shared/languages';
import { useApp } from '../screens/context';
import { Icon } from '../ui/kit/icon';
import { useResource } from '../ui/kit/hooks';
import { Link } from '../ui/kit/link';
import './translation-badge.css';

/** Folio's field of a translation's result space (GET /v1/spaces/{id}). */
interface TranslatedFrom {
  translation: string;
  space: string;
  language: string;
}

/**
 * Beside a space's title: "Français · translated from Handbook" when the space is the result of a
 * translation, linking to its source space (runs rewrite its pages: edit the source instead).
 * Nothing for an ordinary space. Both spaces come from the account's space store.
 */
export function TranslationBadge(props: { spaceId: string }) {
  const { stores } = useApp();
  const { state } = useResource(stores.space, props.spaceId);
  const from =
    'data' in state ? (state.data as { translatedFrom?: TranslatedFrom } | undefined)?.translatedFrom : undefined;
  if (!from) return null;
  return <SourceLink from={from} />;
}

function SourceLink({ from }: { from: TranslatedFrom }) {
  const { stores } = useApp();
  const { state } = useResource(stores.space, from.space);
  const source = 'data' in state ? state.data : undefined;
  const language = nativeLanguageName(from.language);
  const tip = 'A translation: its pages are rewritten by each run from the source space.';
  // A source the caller may not see (or not yet loaded) is named without a link.
  if (!source)
    return (
      <span class="badge tr-badge" data-testid="translation-badge" title={tip}>
        <Icon name="globe" size={12} />
        <span class="tr-badge-text">
          <span lang={from.language}>{language}</span> · translated
        </span>
        <span class="tr-badge-short" aria-hidden="true">
          {from.language.toUpperCase()}
        </span>
      </span>
    );
  return (
    <Link
      to={{ view: 'space', spaceId: from.space }}
      class="badge tr-badge"
      data-testid="translation-badge"
      title={`${tip} Open the source space.`}
    >
      <Icon name="globe" size={12} />
      <span class="tr-badge-text">
        <span lang={from.language}>{language}</span> · translated from {source.title || 'Untitled space'}
      </span>
      <span class="tr-badge-short" aria-hidden="true">
        {from.language.toUpperCase()}
      </span>
    </Link>
  );
}
