import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from '../../screens/context';
import { AsyncSection } from '../../ui/kit/async-section';
import { useAsync } from '../../ui/kit/hooks';
import { Icon } from '../../ui/kit/icon';
import { Link } from '../../ui/kit/link';
import { TabPanel, Tabs } from '../../ui/kit/tabs';
import '../../ui/kit/underline-tabs.css';
import type { SiteDetails } from '../site-api';
import { memberVisitorToken } from '../settings-api';
import { previewDocument, previewUrl } from './preview-document';
import { useElementWidth } from './use-element-width';

/** How long the preview waits after a saved change before it reloads (several quick saves, one reload). */
const RELOAD_DELAY_MS = 400;

/** The widths the page is laid out at (then scaled down to the column): a desktop window and a phone. */
const VIEWPORTS = { desktop: 1280, phone: 390 } as const;
type Viewport = keyof typeof VIEWPORTS;
/** The narrowest column that shows the desktop layout first (scaled any smaller, its text is unreadable). */
const MIN_DESKTOP_WIDTH = 640;
/** The preview's height on screen. */
const FRAME_HEIGHT = 600;

/**
 * A live preview of the published site's home page, reloaded (debounced) whenever `version`
 * changes — the customization's `updatedAt`, so after each saved change. The page is fetched and
 * shown in a sandboxed frame (see preview-document.ts: the site cannot be framed directly).
 */
export function SitePreview(props: { orgId: string; site: SiteDetails; version: string | undefined }) {
  const { site } = props;
  const published = site.urls.published;
  const [shown, setShown] = useState(props.version);
  useEffect(() => {
    const timer = setTimeout(() => setShown(props.version), RELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [props.version]);

  return (
    <section class="site-preview" aria-labelledby="site-preview-title" data-testid="site-preview">
      <header class="site-preview-header">
        <h2 id="site-preview-title">Preview</h2>
        {published && (
          <a href={published} target="_blank" rel="noopener" class="site-preview-open" data-testid="site-preview-open">
            Open the site
            <Icon name="external-link" size={14} />
          </a>
        )}
      </header>
      {!published ? (
        <div class="site-preview-empty" data-testid="site-preview-unpublished">
          <p>The preview shows the published site. This site is not published yet.</p>
          <Link to={{ view: 'site', orgId: props.orgId, siteId: site.id, tab: 'settings' }}>
            Publish it in Settings
          </Link>
        </div>
      ) : !sameOrigin(published) ? (
        // The desktop app runs outside the server's web origin: the page cannot be fetched from here.
        <div class="site-preview-empty" data-testid="site-preview-elsewhere">
          <p>The preview is shown in the web app. Open the site to see your changes.</p>
        </div>
      ) : (
        <PreviewFrame orgId={props.orgId} site={site} published={published} version={shown} />
      )}
    </section>
  );
}

function PreviewFrame(props: { orgId: string; site: SiteDetails; published: string; version: string | undefined }) {
  const { session } = useApp();
  const { site, published } = props;
  const [chosen, setViewport] = useState<Viewport | undefined>();
  const box = useRef<HTMLDivElement>(null);
  const boxWidth = useElementWidth(box);
  // Until one is chosen: the desktop layout where the column can show it legibly, else the phone's.
  const viewport = chosen ?? (boxWidth >= MIN_DESKTOP_WIDTH ? 'desktop' : 'phone');
  const width = VIEWPORTS[viewport];
  // The page is laid out at the chosen width and scaled to fit the column, as a reader's screen shows it.
  const scale = boxWidth > 0 ? Math.min(1, boxWidth / width) : 1;
  const { state, retry } = useAsync(async () => {
    // A visitor-auth site admits members with the visitor token the server signs for them.
    const token = site.visibility === 'visitor-auth' ? await memberVisitorToken(session.api, props.orgId) : undefined;
    const response = await fetch(previewUrl(published, token), { credentials: 'same-origin', cache: 'no-store' });
    // A refusal or a missing page is shown as a visitor would see it.
    return previewDocument(await response.text(), published);
  }, [published, site.visibility, props.version]);
  return (
    <div class="site-preview-body">
      <Tabs
        label="Preview width"
        class="underline-tabs site-preview-widths"
        active={viewport}
        onSelect={setViewport}
        panelPrefix="site-preview"
        items={[
          { id: 'desktop', label: 'Desktop', testid: 'site-preview-desktop' },
          { id: 'phone', label: 'Phone', testid: 'site-preview-phone' },
        ]}
      />
      <TabPanel prefix="site-preview" id={viewport}>
        <div class="site-preview-box" ref={box} style={{ height: `${FRAME_HEIGHT}px` }}>
          <AsyncSection state={state} what="the preview" retry={retry}>
            {(html) => (
              <iframe
                class="site-preview-frame"
                title={`Preview of ${site.title}`}
                // No scripts: the page is shown, never run (so its same origin gives it nothing to use); it
                // keeps the app's origin so its images load as the site's do. Links open in a new tab.
                sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
                srcdoc={html}
                data-testid="site-preview-frame"
                data-version={props.version}
                style={{
                  width: `${width}px`,
                  height: `${FRAME_HEIGHT / scale}px`,
                  transform: `scale(${scale})`,
                  left: `${Math.max(0, (boxWidth - width * scale) / 2)}px`,
                }}
              />
            )}
          </AsyncSection>
        </div>
      </TabPanel>
    </div>
  );
}

function sameOrigin(url: string): boolean {
  try {
    return new URL(url).origin === window.location.origin;
  } catch {
    return false;
  }
}
