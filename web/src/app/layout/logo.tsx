import { StarIcon } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '@/lib/utils';

export function Logo({ className, onClick }: { className?: string; onClick?: () => void }) {
  return (
    <Link
      to="/"
      className={cn('flex items-center gap-2 rounded-xl font-extrabold tracking-tight', className)}
      aria-label="PrettyScore home"
      onClick={onClick}
    >
      <span
        aria-hidden="true"
        className="brand-gradient grid size-9 place-items-center rounded-xl text-white shadow-md shadow-brand-600/25"
      >
        <StarIcon className="size-5 fill-white" />
      </span>
      <span className="brand-gradient-text text-xl">PrettyScore</span>
    </Link>
  );
}
