/** How a site's state reads in lists and headings. */

const VISIBILITY: Record<string, string> = {
  public: 'Public',
  unlisted: 'Unlisted',
  'share-link': 'Share link',
  'visitor-auth': 'Visitor authentication',
};

/** The label of a site visibility ("share-link" → "Share link"). */
export const visibilityLabel = (visibility: string) => VISIBILITY[visibility] ?? visibility;

/** "Published" (green) or "Not published". */
export function SiteStatusBadge({ published }: { published: boolean }) {
  return (
    <span class={`badge ${published ? 'badge-active' : 'badge-draft'}`} data-testid="site-status">
      {published ? 'Published' : 'Not published'}
    </span>
  );
}
