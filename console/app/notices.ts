import { useEffect, useState } from 'preact/hooks';

/** One-line messages that outlive a page change ("Logged out", "Your session expired"). */
export interface Notice {
  readonly id: number;
  readonly text: string;
  readonly kind: 'info' | 'error';
}

let notices: Notice[] = [];
let next = 1;
const listeners = new Set<(notices: Notice[]) => void>();

function publish(): void {
  for (const listener of listeners) listener(notices);
}

export function notify(text: string, kind: Notice['kind'] = 'info'): void {
  notices = [...notices.filter((n) => n.text !== text), { id: next++, text, kind }];
  publish();
}

export function dismissNotice(id: number): void {
  notices = notices.filter((n) => n.id !== id);
  publish();
}

export function useNotices(): Notice[] {
  const [value, setValue] = useState(notices);
  useEffect(() => {
    listeners.add(setValue);
    return () => void listeners.delete(setValue);
  }, []);
  return value;
}
