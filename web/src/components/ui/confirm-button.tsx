import { useState, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';

type ConfirmButtonProps = {
  /** The button on the page (its text, icon and any visually hidden words). */
  children: ReactNode;
  /** The question, e.g. "Suspend Ada?". */
  title: string;
  /** What will happen, in plain words. */
  description: ReactNode;
  /** The dialog's button that acts, e.g. "Suspend". */
  confirmLabel: string;
  /** Its text while the server works, e.g. "Suspending...". */
  pendingLabel: string;
  /** Runs on confirmation; the dialog closes once it has succeeded and stays open (for Cancel or another try) when it fails. */
  onConfirm: () => Promise<unknown>;
  disabled?: boolean;
  variant?: 'default' | 'outline' | 'ghost';
  size?: 'default' | 'sm';
  className?: string;
  /** Whether the action takes something away (a red confirm button); a payout is not, a suspension is. */
  destructive?: boolean;
};

/**
 * An admin action that cannot be taken back with one click: the button opens
 * an accessible confirmation (Radix AlertDialog) that says what will happen;
 * nothing is sent until the admin confirms there.
 */
export function ConfirmButton({
  children,
  title,
  description,
  confirmLabel,
  pendingLabel,
  onConfirm,
  disabled = false,
  variant = 'outline',
  size = 'sm',
  className,
  destructive = true,
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    setPending(true);
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      // The caller has said why (a toast); the dialog stays for Cancel or another try.
    } finally {
      setPending(false);
    }
  };

  return (
    <AlertDialog open={open} onOpenChange={(next) => (pending ? undefined : setOpen(next))}>
      <AlertDialogTrigger asChild>
        <Button variant={variant} size={size} className={className} disabled={disabled}>
          {children}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle className="break-words">{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <AlertDialogAction destructive={destructive} onClick={() => void confirm()} disabled={pending}>
            {pending ? pendingLabel : confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
