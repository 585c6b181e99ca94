import { useRef } from 'preact/hooks';
import { toast } from '../../ui/toast';

/** Copies text and says so; the clipboard may be refused: then the field is selected for the user. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast('Link copied');
  } catch {
    field?.select();
    toast('Select the link and copy it (the clipboard is not available here)');
  }
}

/** A read-only field showing a link, and a Copy button beside it. */
export function CopyField(props: { text: string; label: string; testid: string; copyTestid: string }) {
  const field = useRef<HTMLInputElement>(null);
  return (
    <>
      <input ref={field} type="text" readOnly value={props.text} aria-label={props.label} data-testid={props.testid} />
      <button
        type="button"
        data-testid={props.copyTestid}
        title="Copy the link"
        onClick={() => void copyText(props.text, field.current)}
      >
        Copy
      </button>
    </>
  );
}
