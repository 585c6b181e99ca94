import { h } from 'preact';
import { ICONS, type IconName } from '../icons';

/**
 * An icon of the app's one set (Lucide, see ../icons.ts) as a Preact element. Decorative unless
 * `label` is given: put the accessible name on the button that holds it.
 */
export function Icon(props: { name: IconName; size?: number; label?: string; class?: string; strokeWidth?: number }) {
  const size = props.size ?? 16;
  return h(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width: size,
      height: size,
      viewBox: '0 0 24 24',
      fill: 'none',
      stroke: 'currentColor',
      'stroke-width': props.strokeWidth ?? 1.75,
      'stroke-linecap': 'round',
      'stroke-linejoin': 'round',
      class: `icon icon-${props.name}${props.class ? ` ${props.class}` : ''}`,
      focusable: 'false',
      ...(props.label ? { role: 'img', 'aria-label': props.label } : { 'aria-hidden': 'true' }),
    },
    ICONS[props.name].map(([tag, attrs]) => h(tag, attrs as Record<string, string>)),
  );
}
