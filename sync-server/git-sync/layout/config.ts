import { parse } from 'yaml';
import { utf8 } from './lines';
import { normalizeDir, resolvePath } from './paths';
import type { Baseline } from './types';

/**
 * Where the docs of a repository are: GitBook's `.gitbook.yaml` at the project directory
 * (`root`: the docs folder, relative to it; `structure.readme` and `structure.summary`: the first
 * page and the table of contents, relative to the root), with GitBook's defaults when it is absent.
 * Its `redirects` are read and written by redirects.ts; nothing else of the file is ever rewritten.
 */

export interface DocsConfig {
  projectDirectory: string;
  /** The docs folder: '' or `dir/`. */
  root: string;
  /** Repository paths of the first page and of SUMMARY.md. */
  readme: string;
  summary: string;
  /** The folder of the assets (`<root>.gitbook/assets/`). */
  assets: string;
  /** Path and exact text of .gitbook.yaml. */
  configPath: string;
  configText?: string;
}

const DEFAULT_README = 'README.md';
const DEFAULT_SUMMARY = 'SUMMARY.md';

export const CONFIG_NAME = '.gitbook.yaml';

function configFrom(projectDirectory: string, root: string, readme: string, summary: string, text?: string) {
  return {
    projectDirectory,
    root,
    readme: root + readme,
    summary: root + summary,
    assets: `${root}.gitbook/assets/`,
    configPath: projectDirectory + CONFIG_NAME,
    ...(text !== undefined ? { configText: text } : {}),
  };
}

/** The project directory option, normalized; one that climbs out of the repository is refused. */
export function projectDirectoryOf(option: string | undefined): string {
  const dir = normalizeDir(option);
  if (dir === undefined) throw new Error(`The project directory ${JSON.stringify(option)} is outside the repository`);
  return dir;
}

/** Reads .gitbook.yaml from a tree (see the file comment); what it cannot use is said in `warnings`. */
export function readConfig(
  files: ReadonlyMap<string, Uint8Array>,
  projectDirectory: string,
  warnings: string[],
): DocsConfig {
  const configPath = projectDirectory + CONFIG_NAME;
  const bytes = files.get(configPath);
  if (!bytes) return configFrom(projectDirectory, projectDirectory, DEFAULT_README, DEFAULT_SUMMARY);
  const text = utf8(bytes);
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    warnings.push(
      `${configPath} is not valid YAML (${(e as Error).message.split('\n')[0]}): GitBook's defaults are used`,
    );
    return configFrom(projectDirectory, projectDirectory, DEFAULT_README, DEFAULT_SUMMARY, text);
  }
  const config = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const structure = (config.structure && typeof config.structure === 'object' ? config.structure : {}) as Record<
    string,
    unknown
  >;
  const pathSetting = (value: unknown, name: string, fallback: string): string => {
    if (typeof value !== 'string' || value.trim() === '') return fallback;
    const path = resolvePath('', value.trim());
    if (path === undefined || path === '') {
      warnings.push(`${configPath}: ${name} ${JSON.stringify(value)} leaves the docs folder; ${fallback} is used`);
      return fallback;
    }
    return path;
  };
  let root = projectDirectory;
  if (typeof config.root === 'string') {
    const dir = normalizeDir(config.root.trim());
    if (dir === undefined) warnings.push(`${configPath}: root ${JSON.stringify(config.root)} leaves the repository`);
    else root = projectDirectory + dir;
  }
  return configFrom(
    projectDirectory,
    root,
    pathSetting(structure.readme, 'structure.readme', DEFAULT_README),
    pathSetting(structure.summary, 'structure.summary', DEFAULT_SUMMARY),
    text,
  );
}

/** The configuration a baseline was read with. */
export function configOfBaseline(baseline: Baseline): DocsConfig {
  return {
    projectDirectory: baseline.projectDirectory,
    root: baseline.root,
    readme: baseline.readme,
    summary: baseline.summary,
    assets: `${baseline.root}.gitbook/assets/`,
    configPath: baseline.projectDirectory + CONFIG_NAME,
    ...(baseline.configText !== undefined ? { configText: baseline.configText } : {}),
  };
}
