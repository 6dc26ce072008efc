/** Sets the browser tab's title; React 19 moves <title> into the document head. */
export function PageTitle({ title }: { title?: string }) {
  return <title>{title ? `${title} · PrettyScore` : 'PrettyScore – your photo’s score, just for fun'}</title>;
}
