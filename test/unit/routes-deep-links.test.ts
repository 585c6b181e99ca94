import { describe, expect, it } from 'vitest';
import { DeepLinkQueue, deepLinkInArgv, isDeepLink } from '../../main/deep-links';
import { parseAppLink } from '../../renderer/src/routes';

describe('folio:// links in the desktop main process', () => {
  it('recognises only folio:// links', () => {
    expect(isDeepLink('folio://app/s/abc')).toBe(true);
    expect(isDeepLink('folio:/s/abc')).toBe(true);
    expect(isDeepLink('https://example.com/app/s/abc')).toBe(false);
    expect(isDeepLink('folio-app://app/index.html')).toBe(false);
    expect(isDeepLink(`folio://app/s/${'a'.repeat(3000)}`)).toBe(false);
    expect(isDeepLink(42)).toBe(false);
  });

  it('finds the link Windows and Linux pass on the command line', () => {
    expect(deepLinkInArgv(['/usr/bin/folio', '--no-sandbox', 'folio://s/abc'])).toBe('folio://s/abc');
    expect(deepLinkInArgv(['/usr/bin/folio', '--folio-handlers={}'])).toBeUndefined();
  });

  it('holds a launch link until the window is ready, then forwards every link', () => {
    const queue = new DeepLinkQueue();
    const sent: string[] = [];
    queue.push('folio://s/first');
    queue.push('folio://s/second'); // the last click wins before the window exists
    queue.push('https://not-ours.example');
    expect(sent).toEqual([]);
    queue.attach((url) => sent.push(url));
    expect(sent).toEqual(['folio://s/second']);
    queue.push('folio://o/org1');
    expect(sent).toEqual(['folio://s/second', 'folio://o/org1']);
    queue.detach();
    queue.push('folio://s/later');
    expect(sent).toHaveLength(2);
    queue.attach((url) => sent.push(url));
    expect(sent.at(-1)).toBe('folio://s/later');
  });

  it('forwards links the renderer maps to the same screens as the web app', () => {
    const forwarded = deepLinkInArgv(['folio', 'folio://app/s/sp1/cr/cr1'])!;
    expect(parseAppLink(forwarded)?.route).toEqual({ view: 'space', spaceId: 'sp1', changeRequestId: 'cr1' });
  });
});
