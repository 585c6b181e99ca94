import { useEffect, useState, type MutableRef } from 'preact/hooks';

/** The width of an element, followed while mounted (a ResizeObserver, disconnected on unmount). */
export function useElementWidth(ref: MutableRef<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref.current]);
  return width;
}
