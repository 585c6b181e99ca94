import { roleLabel, ROLES, type DefaultLevel, type Role } from '../org-api';

/**
 * A select of roles (`guest` optional), labelled for screen readers. Controlled: it shows `value`
 * until the owner changes it, so a refused change goes back to what the server holds.
 */
export function RoleSelect(props: {
  value: Role | null;
  onChange: (role: Role | null) => void;
  label: string;
  testid: string;
  guest?: boolean;
  disabled?: boolean;
}) {
  const choices: (Role | null)[] = [...ROLES, ...(props.guest ? [null] : [])];
  return (
    <select
      aria-label={props.label}
      data-testid={props.testid}
      disabled={props.disabled}
      value={props.value ?? 'guest'}
      onChange={(event) => {
        const value = event.currentTarget.value;
        props.onChange(value === 'guest' ? null : (value as Role));
      }}
    >
      {choices.map((role) => (
        <option key={role ?? 'guest'} value={role ?? 'guest'}>
          {roleLabel(role)}
        </option>
      ))}
    </select>
  );
}

/** A select of space / collection default levels (what every organization member gets). */
export function LevelSelect(props: {
  value: DefaultLevel;
  onChange: (level: DefaultLevel) => void;
  label: string;
  testid: string;
  /** Where `inherit` comes from: the parent collection, or each member's organization role. */
  inheritFrom: 'collection' | 'organization';
  disabled?: boolean;
}) {
  const choices: DefaultLevel[] = ['inherit', ...ROLES, null];
  const name = (level: DefaultLevel) =>
    level === null
      ? 'No access'
      : level === 'inherit'
        ? props.inheritFrom === 'collection'
          ? 'As in the collection'
          : 'Their organization role'
        : roleLabel(level);
  return (
    <select
      aria-label={props.label}
      data-testid={props.testid}
      disabled={props.disabled}
      value={props.value ?? 'none'}
      onChange={(event) => {
        const value = event.currentTarget.value;
        props.onChange(value === 'none' ? null : (value as DefaultLevel));
      }}
    >
      {choices.map((level) => (
        <option key={level ?? 'none'} value={level ?? 'none'}>
          {name(level)}
        </option>
      ))}
    </select>
  );
}
