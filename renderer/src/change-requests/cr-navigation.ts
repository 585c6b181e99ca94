/** What the change-requests panel asks the workspace to do. */
export interface CrNavigation {
  /** Switch the editor into a change request (undefined: back to the space's main content). */
  openChangeRequest(crId: string | undefined): void;
  openPage(pageId: string): void;
}
