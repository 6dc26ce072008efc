import type { ApiSchemas } from '@/lib/api-client';

/**
 * The edit-photo function and the edit quota, as the server's OpenAPI
 * document describes them (generated: scripts/gen-api-types.sh).
 */

/** The editor's manual sliders: percent 0-200 (100 leaves the image as it is) and a blur radius 0-10 px. */
export type Adjustments = ApiSchemas['Adjustments'];

/**
 * POST /functions/v1/edit-photo: a data: URL or one of our own /media URLs, a prompt and/or adjustments (free).
 * `feature: 'ai_editor'` (sent by /editor) asks the server to check the editor's gate: Premium or an active trial.
 */
export type EditPhotoRequest = ApiSchemas['EditPhotoRequest'];

/** A signed, relative /media/… URL; `editsRemaining` null: unlimited (premium). */
export type EditPhotoResponse = ApiSchemas['EditPhotoResponse'];

/**
 * GET /api/v1/edits/quota: the server's truth for this device (and user).
 * `generative` false: hair and outfit prompts get 422 unsupported_prompt.
 */
export type EditsQuota = ApiSchemas['EditQuota'];
