import { ShieldCheckIcon } from 'lucide-react';
import { Link } from 'react-router';
import { VerifiedBadge } from '@/components/verified-badge';
import { paths } from '@/config/paths';
import { useMyVerification } from '@/resources/verification/verification';

/** My Photos' verification line: the badge for verified users, Get Verified for the others. */
export function VerificationStatus() {
  const mine = useMyVerification();
  if (!mine.data) return null;
  if (mine.data.verified) {
    return (
      <div>
        <VerifiedBadge />
      </div>
    );
  }
  return (
    <p className="flex items-center gap-2 text-sm text-muted-foreground">
      <ShieldCheckIcon aria-hidden="true" className="size-4 text-primary" />
      <Link to={paths.requestVerification.path} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
        Get Verified
      </Link>
    </p>
  );
}
