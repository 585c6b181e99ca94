import { useRef, useState } from 'preact/hooks';
import { Icon } from './icon';

/**
 * A value to copy (a link, a key): read-only text and a Copy button. When the clipboard is refused
 * (an insecure origin, a denied permission) the text is selected for the person to copy.
 */
export function CopyField(props: { value: string; label: string; testid?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setSaid('Copied');
    } catch {
      input.current?.select();
      setSaid('Press Ctrl+C (or ⌘C) to copy the selected text');
    }
  };
  return (
    <div class="copy-field">
      <input
        ref={input}
        type="text"
        readOnly
        value={props.value}
        aria-label={props.label}
        data-testid={props.testid}
        onFocus={(event) => event.currentTarget.select()}
      />
      <button type="button" onClick={() => void copy()} data-testid={props.testid && `${props.testid}-copy`}>
        <Icon name="copy" />
        Copy
      </button>
      <span class="muted copy-field-said" role="status">
        {said}
      </span>
    </div>
  );
}
