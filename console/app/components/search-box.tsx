import { useEffect, useState } from 'preact/hooks';

/** A search field that tells its owner after typing pauses (one request per pause, not per key). */
export function SearchBox({
  label,
  value,
  onChange,
  delay = 250,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  delay?: number;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onChange(text), delay);
    return () => clearTimeout(timer);
    // onChange changes identity on every render of the owner; the text is what matters.
  }, [text]);
  return (
    <input
      type="search"
      class="search"
      aria-label={label}
      placeholder={`${label}…`}
      value={text}
      onInput={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => e.key === 'Enter' && onChange(text)}
    />
  );
}
