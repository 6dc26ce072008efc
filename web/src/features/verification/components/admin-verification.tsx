import { useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/lib/toast';
import { useDecideVerification, useVerificationRequests, type VerificationRequest } from '@/resources/verification/verification';

const STATUS_STYLE: Record<string, string> = {
  pending: 'border-amber-200 bg-amber-50 text-amber-800',
  approved: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  rejected: 'border-red-200 bg-red-50 text-red-800',
};

/** /admin/verification: every request, newest first; pending ones get notes, Approve and Reject. */
export function AdminVerification() {
  const requests = useVerificationRequests();
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 wrap-anywhere">
      <h1 className="text-3xl font-extrabold tracking-tight">Verification Requests</h1>
      {requests.isPending ? (
        <p role="status">Loading requests...</p>
      ) : requests.isError ? (
        <p role="alert" className="text-destructive">
          Failed to load verification requests
        </p>
      ) : requests.data.length === 0 ? (
        <p className="text-muted-foreground">No verification requests found.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Requests">
          {requests.data.map((request) => (
            <RequestCard key={request.id} request={request} />
          ))}
        </ul>
      )}
    </div>
  );
}

function RequestCard({ request }: { request: VerificationRequest }) {
  const decide = useDecideVerification();
  const [notes, setNotes] = useState('');
  const notesId = useId();
  const act = (approve: boolean) =>
    decide.mutateAsync(
      { id: request.id, approve, adminNotes: notes },
      {
        onSuccess: () => toast.success(approve ? 'Verification request approved!' : 'Verification request rejected'),
        onError: () => toast.error(approve ? 'Failed to approve request' : 'Failed to reject request'),
      },
    );
  return (
    <li className="grid gap-3 rounded-2xl border bg-card p-4 shadow-sm" aria-label={request.fullName} data-testid="verification-card">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-lg font-bold">{request.fullName}</p>
        <Badge className={`capitalize ${STATUS_STYLE[request.status] ?? ''}`}>{request.status}</Badge>
      </div>
      <p className="whitespace-pre-line text-sm">{request.reason}</p>
      <dl className="grid gap-1 text-sm text-muted-foreground sm:grid-cols-2">
        <div>
          <dt className="inline font-medium text-foreground">Instagram: </dt>
          <dd className="inline">{request.instagramHandle ? `@${request.instagramHandle}` : '–'}</dd>
        </div>
        <div>
          <dt className="inline font-medium text-foreground">Other social: </dt>
          <dd className="inline break-all">{request.otherSocial ?? '–'}</dd>
        </div>
        <div>
          <dt className="inline font-medium text-foreground">Submitted: </dt>
          <dd className="inline">{new Date(request.createdAt).toLocaleString()}</dd>
        </div>
        {request.adminNotes ? (
          <div>
            <dt className="inline font-medium text-foreground">Admin notes: </dt>
            <dd className="inline">{request.adminNotes}</dd>
          </div>
        ) : null}
      </dl>
      {request.status === 'pending' ? (
        <div className="grid gap-2">
          <Label htmlFor={notesId}>Admin Notes</Label>
          <Textarea id={notesId} rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} />
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => void act(true).catch(() => undefined)} disabled={decide.isPending}>
              Approve
            </Button>
            <ConfirmButton
              size="default"
              disabled={decide.isPending}
              title={`Reject ${request.fullName}'s request?`}
              description={
                notes.trim()
                  ? `${request.fullName} gets no verification badge, and the request is closed with your notes: “${notes.trim()}”.`
                  : `${request.fullName} gets no verification badge, and the request is closed without notes. Add notes first if you want to say why.`
              }
              confirmLabel="Reject"
              pendingLabel="Rejecting..."
              onConfirm={() => act(false)}
            >
              Reject
            </ConfirmButton>
          </div>
        </div>
      ) : null}
    </li>
  );
}
