import type { FaceAnalysis, Point } from '../types';

/** A made-up analysis for tests: a face in the middle of a 400 x 500 photo. */
export function sampleAnalysis(score = 8.3, overrides: Partial<FaceAnalysis> = {}): FaceAnalysis {
  const landmarks: Point[] = Array.from({ length: 468 }, (_, i) => [0.3 + (i % 20) * 0.02, 0.3 + Math.floor(i / 20) * 0.015]);
  return {
    score,
    ratingLabel: 'Gorgeous',
    emoji: '🔥',
    tier: 'gorgeous',
    breakdown: { symmetry: 8.7, skinQuality: 7.9, facialHarmony: 8.2, overallBalance: 8.0 },
    imageWidth: 400,
    imageHeight: 500,
    faceBox: { x: 0.25, y: 0.2, width: 0.5, height: 0.55 },
    landmarks,
    keyPoints: {
      rightEye: [0.4, 0.4],
      leftEye: [0.6, 0.4],
      noseTip: [0.5, 0.5],
      mouthRight: [0.43, 0.6],
      mouthLeft: [0.57, 0.6],
      chin: [0.5, 0.72],
      forehead: [0.5, 0.25],
      midline: [
        [0.5, 0.22],
        [0.5, 0.74],
      ],
    },
    measures: {
      eyeDistancePx: 62,
      symmetryError: 0.05,
      eyeLineTiltDeg: 0.8,
      mouthTiltDeg: 0.5,
      noseOffset: 0.02,
      thirdsRatio: 1.02,
      lowerFaceRatio: 1.9,
      fifthsDeviation: 0.08,
      mouthNoseRatio: 1.55,
      noseChinRatio: 1.6,
      faceLengthWidthRatio: 1.4,
      exposure: 140,
      clipping: 0.01,
      sharpness: 12,
      skinTexture: 4,
      skinUnevenness: 0.06,
    },
    ...overrides,
  };
}

/** A 1x1 PNG as a data URL. */
export const SAMPLE_IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
