import type { SiteVisibility } from '../site-api';

/** The audiences a site can have, as the Audience screen offers them (GitBook's wording). */
export const VISIBILITIES: { value: SiteVisibility; label: string; description: string }[] = [
  {
    value: 'public',
    label: 'Public',
    description: 'Anyone can read the site, and search engines index it.',
  },
  {
    value: 'unlisted',
    label: 'Unlisted',
    description: 'Anyone with the address can read it; search engines are asked not to index it.',
  },
  {
    value: 'share-link',
    label: 'Share link',
    description: 'Only people who open it with its secret share link can read it.',
  },
  {
    value: 'visitor-auth',
    label: 'Authenticated access',
    description: 'Only visitors your own sign-in sends with a signed token (JWT) can read it.',
  },
];
