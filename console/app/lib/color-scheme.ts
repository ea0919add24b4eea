import { useEffect, useState } from 'preact/hooks';

/** Whether a media query matches, followed live (a rotated phone, a changed system theme). */
export function useMediaQuery(text: string): boolean {
  const [matches, setMatches] = useState(() => matchMedia(text).matches);
  useEffect(() => {
    const query = matchMedia(text);
    const change = () => setMatches(query.matches);
    change();
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, [text]);
  return matches;
}

/** The system's color scheme, followed live: canvas drawings (the plots) redraw in the new colors. */
export function useColorScheme(): 'light' | 'dark' {
  return useMediaQuery('(prefers-color-scheme: dark)') ? 'dark' : 'light';
}

/** A CSS custom property of the page (the plots take their axis and grid colors from the stylesheet). */
export function cssColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}
