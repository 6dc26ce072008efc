import { useParams } from 'react-router';
import { MessagesPage } from '@/features/messages/components/messages-page';

/** /messages/:requestId: the conversation of an approved contact request (signed in). */
export default function MessagesRoute() {
  const { requestId = '' } = useParams();
  // Keyed by request: another conversation starts from a clean state.
  return <MessagesPage key={requestId} requestId={requestId} />;
}
