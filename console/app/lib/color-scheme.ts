import { useEffect, useState } from 'preact/hooks';

const DARK = '(prefers-color-scheme: dark)';

/** The system's color scheme, followed live: canvas drawings (the plots) redraw in the new colors. */
export function useColorScheme(): 'light' | 'dark' {
  const [dark, setDark] = useState(() => matchMedia(DARK).matches);
  useEffect(() => {
    const query = matchMedia(DARK);
    const change = () => setDark(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return dark ? 'dark' : 'light';
}

/** A CSS custom property of the page (the plots take their axis and grid colors from the stylesheet). */
export function cssColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}
