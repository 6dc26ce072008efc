import { useNavigate } from 'react-router';
import { paths, signInPathFor } from '@/config/paths';
import { toast } from '@/lib/toast';
import type { ResultState } from '../types';
import { SIGN_IN_TO_SAVE_MESSAGE } from '../utils/leaderboard-entry';
import { keepPendingResult } from '../utils/pending-result';

/**
 * 'Sign In to Save': keeps the result (with its edits) for this tab and goes
 * to sign in, which comes back to /results, where the result is shown again
 * and can be saved. Where the browser refuses to keep it, the way back is
 * /upload, where the photo is still kept: the same photo scores the same.
 */
export function useSignInToSave() {
  const navigate = useNavigate();
  return (result: ResultState) => {
    toast.info(SIGN_IN_TO_SAVE_MESSAGE);
    const back = keepPendingResult(result) ? paths.results.path : paths.upload.path;
    void navigate(signInPathFor(back));
  };
}
