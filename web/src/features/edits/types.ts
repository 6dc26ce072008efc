/**
 * The edit-photo function and the edit quota (issue 4's contract). Written
 * by hand until the server's OpenAPI document describes these paths; then
 * they become aliases of the generated schemas.
 */

/** The editor's manual sliders: percent 0-200 (100 leaves the image as it is) and a blur radius 0-10 px. */
export type Adjustments = {
  brightness: number;
  contrast: number;
  saturation: number;
  blurPx: number;
};

/** POST /functions/v1/edit-photo */
export type EditPhotoRequest = {
  /** A data: URL, or one of our own /media URLs. */
  imageUrl: string;
  /** Required unless only adjustments are asked for (those are free). */
  prompt?: string;
  /** A saved photo of the signed-in user: its edited_image_url becomes the result. */
  photoId?: string;
  adjustments?: Adjustments;
};

export type EditPhotoResponse = {
  /** A signed, relative /media/… URL. */
  editedImageUrl: string;
  /** null: unlimited (premium). */
  editsRemaining: number | null;
  operations: string[];
  engine: 'builtin' | 'generative';
};

/** GET /api/v1/edits/quota: the server's truth for this device (and user). */
export type EditsQuota = {
  limit: number;
  used: number;
  remaining: number | null;
  unlimited: boolean;
  /** false: hair and outfit prompts get 422 unsupported_prompt (no generative provider configured). */
  generative: boolean;
};
