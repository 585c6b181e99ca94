import type { AppContext } from '../../context';
import { parseAllowList } from '../../outbound';
// Straight from engine-from: the translation index also holds the segmenter, which loads the markdown parser.
import { engineFrom } from '../../translation/engine-from';
import type { TranslationEngine } from '../../translation';

const engines = new WeakMap<AppContext, TranslationEngine | null>();

/** The server's translation engine from its settings (undefined: none configured), made once per server. */
export function translationEngineOf(ctx: AppContext): TranslationEngine | undefined {
  if (!engines.has(ctx)) {
    const c = ctx.config;
    const engine = engineFrom(
      { engine: c.translateEngine, url: c.translateUrl, key: c.translateKey, model: c.translateModel },
      { allow: parseAllowList(c.outboundAllow) },
    );
    engines.set(ctx, engine ?? null);
  }
  return engines.get(ctx) ?? undefined;
}
