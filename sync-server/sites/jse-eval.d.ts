/**
 * jse-eval ships its types at dist/index.d.ts but its package `exports` map
 * does not name them, so TypeScript's node16/bundler resolution misses them.
 * These are the two functions Folio uses, as that file declares them.
 */
declare module 'jse-eval' {
  import type { Expression } from 'jsep';
  export function parse(expression: string): Expression;
  export function evaluate(ast: Expression, context?: Record<string, unknown>): unknown;
}
