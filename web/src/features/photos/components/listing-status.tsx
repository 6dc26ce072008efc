import type { Photo } from '@/resources/photos/photos';

export const PENDING_ENTRY_MESSAGE = 'Admins will verify your entry soon';

/** Where the photo's leaderboard entry stands, for its owner: pending, listed, rejected (with the admin's reason) or unlisted. */
export function ListingStatus({ photo }: { photo: Pick<Photo, 'listing_status' | 'rejection_reason'> }) {
  switch (photo.listing_status) {
    case 'pending':
      return (
        <p className="mt-2 rounded-xl bg-amber-50 px-3 py-1.5 text-xs font-semibold text-amber-900" data-testid="listing-status">
          Leaderboard: pending. {PENDING_ENTRY_MESSAGE}.
        </p>
      );
    case 'approved':
      return (
        <p className="mt-2 rounded-xl bg-emerald-50 px-3 py-1.5 text-xs font-semibold text-emerald-900" data-testid="listing-status">
          On the leaderboard
        </p>
      );
    case 'rejected':
      return (
        <p className="mt-2 rounded-xl bg-red-50 px-3 py-1.5 text-xs font-semibold text-red-900" data-testid="listing-status">
          Leaderboard entry rejected{photo.rejection_reason ? `: ${photo.rejection_reason}` : ''}
        </p>
      );
    case 'unlisted':
      return (
        <p className="mt-2 rounded-xl bg-muted px-3 py-1.5 text-xs font-semibold" data-testid="listing-status">
          Removed from the leaderboard{photo.rejection_reason ? `: ${photo.rejection_reason}` : ''}
        </p>
      );
    default:
      return null;
  }
}
