import { ContestantRequestsPage } from '@/features/contact/components/contestant-requests-page';

/** /contestant-requests: the contact-requests inbox (signed in; the router asks for sign-in first). */
export default function ContestantRequestsRoute() {
  return <ContestantRequestsPage />;
}
