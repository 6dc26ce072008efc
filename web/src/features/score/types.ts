/**
 * The face analysis as the server sends it (serde JSON of crates/analysis'
 * `FaceAnalysis`). Local types until web/src/lib/api/schema.d.ts lists the
 * analysis endpoints; then each becomes an alias of `ApiSchemas[...]`.
 */
/** [x, y], normalised to the upright image (0..1). */
export type Point = number[];

export type Tier =
  | 'lovely'
  | 'pretty'
  | 'veryPretty'
  | 'beautiful'
  | 'gorgeous'
  | 'absolutelyStunning'
  | 'exceptional'
  | 'eliteBeauty'
  | 'worldsMostBeautiful';

export type FaceBreakdown = {
  symmetry: number;
  skinQuality: number;
  facialHarmony: number;
  overallBalance: number;
};

export type NormBox = { x: number; y: number; width: number; height: number };

export type KeyPoints = {
  rightEye: Point;
  leftEye: Point;
  noseTip: Point;
  mouthRight: Point;
  mouthLeft: Point;
  chin: Point;
  forehead: Point;
  /** Two points of the fitted facial midline (top and bottom of the face). */
  midline: Point[];
};

export type FaceMeasures = Record<string, number>;

export type FaceAnalysis = {
  /** 1.0 to 10.0, one decimal. */
  score: number;
  ratingLabel: string;
  emoji: string;
  tier: Tier;
  breakdown: FaceBreakdown;
  imageWidth: number;
  imageHeight: number;
  /** Normalised to the upright image (0..1). */
  faceBox: NormBox;
  /** The 468 mesh landmarks, normalised. */
  landmarks: Point[];
  keyPoints: KeyPoints;
  measures: FaceMeasures;
};

/** A saved photo row (snake_case, as POST /api/v1/photos answers). */
export type SavedPhoto = {
  id: string;
  user_id: string;
  original_image_url: string;
  edited_image_url: string | null;
  score: number;
  rating_label: string;
  breakdown: Partial<FaceBreakdown>;
  photo_type: string;
  public_listing: boolean;
  featured: boolean;
  is_verified: boolean;
  display_name: string | null;
  bio: string | null;
  created_at: string;
};

/** What /upload hands to /results in navigation state. */
export type ResultState = { analysis: FaceAnalysis; image: string };

export function isResultState(value: unknown): value is ResultState {
  if (!value || typeof value !== 'object') return false;
  const state = value as Partial<ResultState>;
  return (
    typeof state.image === 'string' &&
    state.image.startsWith('data:image/') &&
    !!state.analysis &&
    typeof state.analysis.score === 'number' &&
    !!state.analysis.breakdown
  );
}
