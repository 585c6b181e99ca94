import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import type { Extension } from '@codemirror/state';

/**
 * Token colours of the markdown source and of code inside fenced blocks, as
 * CSS variables (defined in live-preview.css for light and dark), so markup
 * stays readable in both themes. CodeMirror's default style is dark-on-light
 * only, which made markdown markup nearly invisible in dark mode.
 */
const style = HighlightStyle.define([
  { tag: t.heading, color: 'var(--lp-tok-heading)', fontWeight: '600' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strong, fontWeight: '700' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
  { tag: [t.link, t.url], color: 'var(--lp-tok-link)' },
  { tag: [t.processingInstruction, t.meta, t.contentSeparator], color: 'var(--lp-tok-mark)' },
  { tag: t.quote, color: 'var(--lp-tok-quote)' },
  { tag: t.monospace, color: 'var(--lp-tok-code)' },
  { tag: [t.keyword, t.operatorKeyword, t.modifier, t.controlKeyword], color: 'var(--lp-tok-keyword)' },
  { tag: [t.string, t.special(t.string), t.regexp], color: 'var(--lp-tok-string)' },
  { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--lp-tok-number)' },
  { tag: [t.comment, t.lineComment, t.blockComment], color: 'var(--lp-tok-comment)', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: 'var(--lp-tok-function)' },
  { tag: [t.typeName, t.className, t.namespace], color: 'var(--lp-tok-type)' },
  { tag: [t.propertyName, t.attributeName], color: 'var(--lp-tok-property)' },
  { tag: [t.tagName, t.angleBracket], color: 'var(--lp-tok-tag)' },
  { tag: t.invalid, color: 'var(--danger)' },
]);

/** The editor's syntax highlighting (live preview and source mode alike). */
export function editorHighlighting(): Extension {
  return syntaxHighlighting(style);
}
