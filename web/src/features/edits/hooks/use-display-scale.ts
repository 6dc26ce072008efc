import { useEffect, useState } from 'react';

/**
 * How large `imageUrl` is shown: the width of the observed element over the
 * photo's own width (1 until both are known). The editor previews its blur
 * slider with it, because the server applies the blur in the photo's pixels.
 */
export function useDisplayScale(imageUrl: string | undefined) {
  const [node, setNode] = useState<HTMLElement | null>(null);
  const [naturalWidth, setNaturalWidth] = useState(0);
  const [shownWidth, setShownWidth] = useState(0);

  useEffect(() => {
    if (!imageUrl) return;
    let live = true;
    const probe = new Image();
    probe.onload = () => {
      if (live) setNaturalWidth(probe.naturalWidth);
    };
    probe.src = imageUrl;
    return () => {
      live = false;
    };
  }, [imageUrl]);

  useEffect(() => {
    if (!node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setShownWidth(entry.contentRect.width));
    observer.observe(node);
    return () => observer.disconnect();
  }, [node]);

  const scale = naturalWidth > 0 && shownWidth > 0 ? shownWidth / naturalWidth : 1;
  return [setNode, scale] as const;
}
