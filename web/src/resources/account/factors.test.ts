import { describe, expect, it } from 'vitest';
import { svgDataUrl } from './factors';

describe('the QR code picture', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="#000000"/></svg>';

  it('escapes the SVG that auth-js prefixed as a data URL', () => {
    const url = svgDataUrl(`data:image/svg+xml;utf-8,${svg}`);
    expect(url).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    expect(url).not.toContain('#');
  });

  it('also takes raw SVG, and leaves other data URLs alone', () => {
    expect(svgDataUrl(svg)).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    expect(svgDataUrl('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
  });
});
