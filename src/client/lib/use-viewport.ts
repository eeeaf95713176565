import { useEffect, useState } from 'react';
import { limits } from '#shared/constants.ts';

/**
 * Whether the window is at most `px` wide, following resizes with the spec's 200 ms debounce
 * (spec §9) so a drag across the breakpoint does not re-render the page on every frame.
 */
export function useViewportAtMost(px: number): boolean {
  const [atMost, setAtMost] = useState(() => window.innerWidth <= px);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setAtMost(window.innerWidth <= px), limits.resizeDebounceMs);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, [px]);
  return atMost;
}
