/** What a guest of the organization (no organization role) sees instead of its docs sites: the API shows them none. */
export function NotForGuests({ what }: { what: string }) {
  return (
    <div class="state state-empty" data-testid="sites-not-allowed">
      <p>Only members of the organization can see its {what}.</p>
    </div>
  );
}
