import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import type { EditKind } from './presets';

/**
 * What a failed edit tells the user (docs/spec-rules.md §5 and §8). The server's own messages are the spec's, so the
 * ones the user can act on (out of free edits, an instruction the built-in
 * editor cannot do, an image problem) are shown as they come.
 */
export type { EditKind };

export const MISSING_PROMPT_MESSAGE = 'Please enter an editing instruction';
export const FREE_EDITS_USED_MESSAGE = "You've used all your free edits. Upgrade to Premium for unlimited edits!";
export const OUT_OF_EDITS_MESSAGE = "You've used all your free edits!";
export const RATE_LIMITED_MESSAGE = 'Rate limit exceeded. Please try again later.';
export const PROVIDER_CREDITS_MESSAGE = 'Please add credits to continue editing.';
export const UPLOAD_FIRST_MESSAGE = 'Please upload an image first';

const failedMessages: Record<EditKind, string> = {
  edit: 'Failed to edit photo. Please try again.',
  enhance: 'Failed to enhance photo. Please try again.',
  upscale: 'Failed to upscale photo. Please try again.',
};

export function editFailedMessage(kind: EditKind = 'edit'): string {
  return failedMessages[kind];
}

/** Server codes whose message is shown to the user as it is. */
const shownCodes = new Set([
  'missing_prompt',
  'free_edits_used',
  'unsupported_prompt',
  'not_an_image',
  'too_large',
  'image_incomplete',
  'payload_too_large',
  // The editor's trial session ended, or Premium lapsed: the server says so.
  'feature_locked',
]);

export function editErrorMessage(error: unknown, kind: EditKind = 'edit'): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const status = error instanceof ApiError ? error.status : undefined;
  // The catalogue matches on the status in the message; the status itself is clearer still.
  if (status === 429 || message.includes('429')) return RATE_LIMITED_MESSAGE;
  if (status === 402 || message.includes('402')) return PROVIDER_CREDITS_MESSAGE;
  if (error instanceof ApiError) {
    if (error.code === 'free_edits_used') return error.message || FREE_EDITS_USED_MESSAGE;
    if (error.code === 'missing_prompt') return MISSING_PROMPT_MESSAGE;
    if (shownCodes.has(error.code) && error.message) return error.message;
    // Any other image problem the server names (400 bad image, 413 too large).
    if ((status === 413 || status === 422) && error.code !== 'http_error' && error.message) return error.message;
  }
  return editFailedMessage(kind);
}

type EditCheck = {
  /** Another edit (or a save, a download) is running. */
  busy: boolean;
  /** There is a photo to edit (the /editor before an upload has none). */
  hasImage?: boolean;
  /** The free edits are used up. */
  out: boolean;
  /** The instruction the edit would send. */
  prompt: string;
};

/**
 * Why an edit must not start, checked the same way by all three editors
 * before they spend one: another is running (nothing to say), no photo yet,
 * no free edits left, no instruction. Null when it may start.
 */
export function editRefusal({ busy, hasImage = true, out, prompt }: EditCheck): { message: string | null } | null {
  if (busy) return { message: null };
  if (!hasImage) return { message: UPLOAD_FIRST_MESSAGE };
  if (out) return { message: FREE_EDITS_USED_MESSAGE };
  if (!prompt.trim()) return { message: MISSING_PROMPT_MESSAGE };
  return null;
}

/** `editRefusal`, told to the user: true when the edit must not start. */
export function refuseEdit(check: EditCheck): boolean {
  const refusal = editRefusal(check);
  if (refusal?.message) toast.error(refusal.message);
  return refusal !== null;
}
