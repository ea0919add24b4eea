import { useState } from 'preact/hooks';

/** Copies text to the clipboard and says so; falls back to selecting a prompt where the clipboard is denied. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState<string>();
  return (
    <span class="action-button">
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setDone('Copied');
          } catch {
            window.prompt('Copy this:', text);
            setDone(undefined);
          }
        }}
      >
        {label}
      </button>
      {done && (
        <span role="status" class="success inline">
          {done}
        </span>
      )}
    </span>
  );
}
