import { cloneElement, isValidElement, type ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { ErrorMessage } from './status.js';

/**
 * A labelled control; `hint` says what the API expects, before the user has to learn it from an error. The
 * hint describes the control (aria-describedby) instead of lengthening its name.
 */
export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: ComponentChildren;
}) {
  const id = useId();
  const control =
    hint && isValidElement(children)
      ? cloneElement(children, { 'aria-describedby': id } as object)
      : children;
  return (
    <div class="field">
      <label class="field-label">
        <span class="label">{label}</span>
        {control}
      </label>
      {hint && (
        <span class="hint" id={id}>
          {hint}
        </span>
      )}
    </div>
  );
}

/**
 * A form whose submit runs an API call: the button is disabled while it runs, and a failure shows the API's
 * message above the button.
 */
export function ActionForm({
  onSubmit,
  submit,
  children,
  class: className,
  label,
}: {
  onSubmit: () => Promise<void>;
  submit: string;
  children: ComponentChildren;
  class?: string;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  return (
    <form
      class={`form ${className ?? ''}`}
      aria-label={label}
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          await onSubmit();
        } catch (e) {
          setError(e instanceof Error ? e : new Error(String(e)));
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
      <ErrorMessage error={error} />
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? `${submit}…` : submit}
        </button>
      </div>
    </form>
  );
}

/** A button that runs an API call and shows its failure next to it. */
export function ActionButton({
  action,
  children,
  class: className,
  confirm,
  label,
}: {
  action: () => Promise<void>;
  children: ComponentChildren;
  class?: string;
  confirm?: string;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  return (
    <span class="action-button">
      <button
        type="button"
        class={className}
        disabled={busy}
        aria-label={label}
        onClick={async () => {
          if (confirm && !window.confirm(confirm)) return;
          setBusy(true);
          setError(undefined);
          try {
            await action();
          } catch (e) {
            setError(e instanceof Error ? e : new Error(String(e)));
          } finally {
            setBusy(false);
          }
        }}
      >
        {children}
      </button>
      {error && (
        <span class="error inline" role="alert">
          {error.message}
        </span>
      )}
    </span>
  );
}
