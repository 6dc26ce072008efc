import { FlagIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import type { ReportTargetKind } from '@/resources/reports/reports';
import { ReportForm } from './report-form';

/** A "Report" button that opens the report form in a dialog. */
export function ReportButton({
  kind,
  id,
  what,
  label,
  variant = 'ghost',
}: {
  kind: ReportTargetKind;
  id: string;
  /** What is reported ("this photo"). */
  what: string;
  /** The button's accessible name, e.g. "Report Anna's entry". */
  label?: string;
  variant?: 'ghost' | 'outline';
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} size="sm" onClick={() => setOpen(true)} aria-label={label ?? `Report ${what}`}>
        <FlagIcon aria-hidden="true" />
        Report
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Report {what}</DialogTitle>
            <DialogDescription>An admin looks at every report within 48 hours and tells you what was decided.</DialogDescription>
          </DialogHeader>
          <ReportForm kind={kind} id={id} what={what} />
        </DialogContent>
      </Dialog>
    </>
  );
}
