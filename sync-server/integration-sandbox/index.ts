import { SandboxPool, type IntegrationSandboxOptions } from './pool';
import type { IntegrationSandbox } from './types';

export type * from './types';
export { DEFAULT_LIMITS, SANDBOX_DEFAULTS, type IntegrationSandboxOptions } from './pool';

/**
 * The integration sandbox of this process: runs GitBook integration scripts (Workers-style ES
 * modules) in QuickJS on worker threads, within memory, CPU and wall-time limits (defaults
 * DEFAULT_LIMITS: 64 MiB, 10 s of CPU, 30 s in all). Threads start on the first run.
 */
export function createIntegrationSandbox(options: IntegrationSandboxOptions = {}): IntegrationSandbox {
  return new SandboxPool(options);
}
