import { ScanFaceIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { FaceAnalysis, Point } from '../types';

type PhotoOverlayProps = { image: string; analysis: FaceAnalysis };

/**
 * The photo with a toggle that draws what the server measured: the 468
 * landmarks, the face box, the symmetry midline and the eye and mouth lines.
 * The SVG's view box is the image's pixel size, so the normalised points
 * land where they were measured at any display size.
 */
export function PhotoOverlay({ image, analysis }: PhotoOverlayProps) {
  const [shown, setShown] = useState(false);
  const legendId = useId();
  const w = analysis.imageWidth || 1;
  const h = analysis.imageHeight || 1;
  const at = ([x, y]: Point) => [x * w, y * h] as const;
  const { keyPoints: k, faceBox } = analysis;
  // With the overlay on, zoom in on the face so the landmarks can be told apart.
  // The face's centre moves towards the middle, never uncovering an edge.
  const zoom = shown ? Math.min(2.5, Math.max(1, 0.5 / Math.max(faceBox.width, faceBox.height, 0.01))) : 1;
  const shift = (centre: number) => Math.min(0, Math.max(1 - zoom, 0.5 - zoom * centre)) * 100;
  const transform = `translate(${shift(faceBox.x + faceBox.width / 2)}%, ${shift(faceBox.y + faceBox.height / 2)}%) scale(${zoom})`;
  const dot = Math.max(w, h) / 320 / zoom;
  const lineWidth = 2.5 / zoom;
  const line = (a: Point, b: Point, colour: string, dashed = false) => {
    const [x1, y1] = at(a);
    const [x2, y2] = at(b);
    return (
      <line
        x1={x1}
        y1={y1}
        x2={x2}
        y2={y2}
        stroke={colour}
        strokeWidth={lineWidth}
        strokeDasharray={dashed ? `${6 / zoom} ${5 / zoom}` : undefined}
        vectorEffect="non-scaling-stroke"
        strokeLinecap="round"
      />
    );
  };

  return (
    <figure className="overflow-hidden rounded-3xl border bg-card shadow-sm">
      <div className="overflow-hidden">
        <div
          className="relative transition-transform duration-500 ease-out"
          style={{ transform, transformOrigin: '0 0' }}
          data-testid="photo-zoom"
        >
          <img src={image} alt="Your photo" className="block h-auto w-full" data-testid="result-photo" />
          {shown ? (
            <svg
              viewBox={`0 0 ${w} ${h}`}
              className="pointer-events-none absolute inset-0 size-full"
              role="img"
              aria-labelledby={legendId}
              data-testid="measure-overlay"
            >
              <rect
                x={faceBox.x * w}
                y={faceBox.y * h}
                width={faceBox.width * w}
                height={faceBox.height * h}
                fill="none"
                stroke="#f472b6"
                strokeWidth={2 / zoom}
                vectorEffect="non-scaling-stroke"
                rx={dot * 2}
              />
              <g fill="#ffffff" fillOpacity={0.85} data-testid="landmarks">
                {analysis.landmarks.map((point, index) => {
                  const [x, y] = at(point);
                  return <circle key={index} cx={x} cy={y} r={dot * 0.55} />;
                })}
              </g>
              {k.midline[0] && k.midline[1] ? line(k.midline[0], k.midline[1], '#facc15', true) : null}
              {line(k.rightEye, k.leftEye, '#22d3ee')}
              {line(k.mouthRight, k.mouthLeft, '#a78bfa')}
              <g fill="#f472b6" stroke="#ffffff" strokeWidth={1 / zoom} vectorEffect="non-scaling-stroke">
                {[k.rightEye, k.leftEye, k.noseTip, k.mouthRight, k.mouthLeft, k.chin, k.forehead].map((point, index) => {
                  const [x, y] = at(point);
                  return <circle key={index} cx={x} cy={y} r={dot * 1.6} />;
                })}
              </g>
            </svg>
          ) : null}
        </div>
      </div>
      <figcaption className="flex flex-wrap items-center justify-between gap-3 p-3 sm:p-4">
        <p id={legendId} className="text-xs text-muted-foreground">
          {shown ? (
            <>
              <span className="font-semibold text-foreground">What we measured:</span> {analysis.landmarks.length}{' '}
              landmarks, the face box, the symmetry midline (dashed) and the eye and mouth lines.
            </>
          ) : (
            'See the landmarks and lines the analysis measured.'
          )}
        </p>
        <Button
          variant={shown ? 'secondary' : 'outline'}
          size="sm"
          aria-pressed={shown}
          onClick={() => setShown((value) => !value)}
        >
          <ScanFaceIcon aria-hidden="true" />
          Show Measurements
        </Button>
      </figcaption>
    </figure>
  );
}
