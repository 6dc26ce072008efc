import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { statusBadge } from '../utils/rules';

const TONE = {
  green: 'border-emerald-300 bg-emerald-50 text-emerald-800',
  yellow: 'border-amber-300 bg-amber-50 text-amber-900',
  red: 'border-red-300 bg-red-50 text-red-800',
} as const;

/** A partner's status: APPROVED green, PENDING yellow, anything else red. */
export function PartnerStatusBadge({ status, className }: { status: string; className?: string }) {
  const { label, tone } = statusBadge(status);
  return (
    <Badge className={cn(TONE[tone], className)} data-testid="partner-status" data-tone={tone}>
      {label}
    </Badge>
  );
}
