import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { SiteSection, SiteSectionGroup, SiteSpace } from '../site-api';
import type { SiteStructure } from './model';

/** The dialogs of the structure screen (one open at a time). */
export type StructureDialog =
  | { kind: 'add-space' }
  | { kind: 'add-section'; groupId?: string }
  | { kind: 'add-variant'; section: SiteSection }
  | { kind: 'rename-section'; section: SiteSection }
  | { kind: 'section-path'; section: SiteSection }
  | { kind: 'new-group' }
  | { kind: 'rename-group'; group: SiteSectionGroup }
  | { kind: 'group-add-section'; group: SiteSectionGroup }
  | { kind: 'site-space-path'; siteSpace: SiteSpace };

/** What every part of the structure screen shares. */
export interface StructureContext {
  orgId: string;
  siteId: string;
  structure: SiteStructure;
  /** May change the structure ("create" role in the organization); readers see no edit control. */
  canManage: boolean;
  /** A write is under way (buttons wait, drags and keys do nothing). */
  busy: boolean;
  /** Runs a write, showing its refusal as "Could not <what>: …". */
  run: (what: string, write: () => Promise<unknown>) => Promise<unknown>;
  open: (dialog: StructureDialog) => void;
}

export const StructureContextProvider = createContext<StructureContext | undefined>(undefined);

export function useStructure(): StructureContext {
  const context = useContext(StructureContextProvider);
  if (!context) throw new Error('useStructure() outside the structure screen');
  return context;
}
