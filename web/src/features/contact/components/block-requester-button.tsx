import { BanIcon } from 'lucide-react';
import { useState } from 'react';
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
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useBlockRequester, type ContactRequest } from '@/resources/contact-requests/contact-requests';
import { messages } from '../utils/rules';

/** Block, after a confirmation: no more requests from them, their open ones denied, the chat closed. */
export function BlockRequesterButton({ request }: { request: ContactRequest }) {
  const block = useBlockRequester();
  const [open, setOpen] = useState(false);

  // Awaited (see the request card's answer): the event stream may move the
  // card away before the response arrives.
  const confirm = async () => {
    try {
      await block.mutateAsync(request.id);
      toast.success(messages.blocked);
      setOpen(false);
    } catch (error) {
      toast.error(messages.blockFailed, error instanceof ApiError && error.code !== 'http_error' ? { description: error.message } : undefined);
    }
  };

  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="sm" className="text-destructive hover:bg-red-50" aria-label={`Block ${request.requesterName}`}>
          <BanIcon aria-hidden="true" />
          Block
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Block {request.requesterName}?</AlertDialogTitle>
          <AlertDialogDescription>
            They can no longer send you contact requests. Their open requests to you are denied and the holds on their card are
            released, and any conversation with them closes for both of you.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={block.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction destructive onClick={() => void confirm()} disabled={block.isPending}>
            {block.isPending ? 'Blocking...' : 'Block'}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
