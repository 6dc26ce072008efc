import { FlagIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import type { LeaderboardEntry } from '@/resources/leaderboard/get-leaderboard';
import { useReportEntry } from '@/resources/leaderboard/report-entry';

export const REPORT_SENT_MESSAGE = 'Thank you. Our admins will review this entry.';
export const REPORT_FAILED_MESSAGE = 'Failed to report entry. Please try again.';

/** Report an entry to the admins (signed-in users; the page sends visitors to sign in first). */
export function ReportEntryButton({ entry, onSignInNeeded }: { entry: LeaderboardEntry; onSignInNeeded?: () => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const report = useReportEntry();
  const reasonId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    report.mutate(
      { photoId: entry.photo_id, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(REPORT_SENT_MESSAGE);
          setOpen(false);
          setReason('');
        },
        onError: (error) => toast.error(error instanceof ApiError && error.status === 422 ? error.message : REPORT_FAILED_MESSAGE),
      },
    );
  };

  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => (onSignInNeeded ? onSignInNeeded() : setOpen(true))}
        aria-label={`Report ${entry.display_name}'s entry`}
      >
        <FlagIcon aria-hidden="true" />
        Report
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <form onSubmit={submit} className="flex flex-col gap-4">
            <DialogHeader>
              <DialogTitle>Report this entry</DialogTitle>
              <DialogDescription>Tell the admins what is wrong with {entry.display_name}'s entry.</DialogDescription>
            </DialogHeader>
            <div className="flex flex-col gap-2">
              <Label htmlFor={reasonId}>Reason</Label>
              <Textarea id={reasonId} value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
            </div>
            <DialogFooter>
              <Button type="submit" disabled={!reason.trim() || report.isPending}>
                Send report
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
