import type { ResourceState } from '../../stores/resource';

/**
 * Two resources as one, for a section that needs both (the home's collections and spaces): ready
 * with both, failed with the first failure, loading otherwise (with both values while reloading).
 */
export function combineStates<A, B>(a: ResourceState<A>, b: ResourceState<B>): ResourceState<[A, B]> {
  if (a.status === 'error') return { status: 'error', error: a.error };
  if (b.status === 'error') return { status: 'error', error: b.error };
  const dataA = 'data' in a ? a.data : undefined;
  const dataB = 'data' in b ? b.data : undefined;
  const both = dataA !== undefined && dataB !== undefined ? ([dataA, dataB] as [A, B]) : undefined;
  if (a.status === 'ready' && b.status === 'ready') return { status: 'ready', data: [a.data, b.data] };
  return both ? { status: 'loading', data: both } : { status: 'loading' };
}
