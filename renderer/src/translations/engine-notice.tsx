import { Icon } from '../ui/kit/icon';

/**
 * Says up front that this server has no translation engine (a translation's `engine` is null):
 * translations can still be set up, but every run fails until an administrator configures one.
 */
export function EngineNotice(props: { manage: boolean }) {
  return (
    <div class="tr-notice tr-notice-warn" role="note" data-testid="translations-no-engine">
      <Icon name="triangle-alert" class="tr-notice-icon" />
      <div>
        <p class="tr-notice-title">No translation engine is configured on this server</p>
        <p>
          {props.manage
            ? 'You can add languages now, but their runs fail until one is set up. '
            : 'Runs fail until one is set up. '}
          Server administrators: set <code>FOLIO_TRANSLATE_URL</code> (a LibreTranslate server, or an OpenAI-compatible
          API with <code>FOLIO_TRANSLATE_MODEL</code>) and restart; see docs/configuration.md (linked from the README).
        </p>
      </div>
    </div>
  );
}
