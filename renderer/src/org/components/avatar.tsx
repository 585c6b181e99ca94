/** The initial of a name, as an avatar (decorative: the name is written next to it). */
export function Avatar({ name }: { name: string }) {
  return (
    <span class="avatar-initial" aria-hidden="true">
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
