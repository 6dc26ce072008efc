import { CheckIcon, LoaderCircleIcon, LogInIcon, RotateCcwIcon, SaveIcon } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Confetti, showsConfetti } from '@/components/confetti';
import { DownloadCardButton } from '@/components/download-card-button';
import { Button } from '@/components/ui/button';
import { signInPathFor } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { dataUrlToBlob, loadImage } from '@/lib/image';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useSavePhoto } from '@/resources/photos/photos';
import { BODY_KINDS, SAVE_FAILED_MESSAGE, SAVED_MESSAGE, SIGN_IN_TO_SAVE_MESSAGE, type BodyKind, type BodyResultState } from '../kinds';
import { bodyCardFileName, drawBodyCard } from '../utils/body-card';

type BodyResultsPageProps<K extends BodyKind> = { kind: K; result: BodyResultState<K> };

/** /feet-results and /hands-results: the server's score, its label and breakdown, confetti at 8.5+, save and download. */
export function BodyResultsPage<K extends BodyKind>({ kind, result }: BodyResultsPageProps<K>) {
  const info = BODY_KINDS[kind];
  const { analysis, image } = result;
  const breakdown = analysis.breakdown as unknown as Record<string, number>;
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      {showsConfetti(analysis.score) ? <Confetti /> : null}
      <article className="overflow-hidden rounded-3xl border bg-card shadow-sm">
        <img src={image} alt={`Your photo of ${info.subject}`} className="max-h-[28rem] w-full object-cover" data-testid="body-photo" />
        <div className="p-6 sm:p-8">
          <div className="text-center">
            <p className="flex items-end justify-center gap-2" data-testid="body-score">
              <span className="bg-linear-to-br from-pink-500 to-violet-600 bg-clip-text text-7xl leading-none font-black text-transparent">{analysis.score.toFixed(1)}</span>
              <span className="pb-2 text-lg font-semibold text-muted-foreground">out of 10</span>
            </p>
            <h1 className="mt-4 text-2xl font-extrabold sm:text-3xl" data-testid="body-label">
              {analysis.ratingLabel}
            </h1>
            <p className="mt-1 text-sm text-muted-foreground">{info.title}</p>
          </div>
          <dl className="mt-6 space-y-4" data-testid="body-breakdown">
            {info.breakdown.map(({ key, label }) => {
              const value = breakdown[key] ?? 0;
              return (
                <div key={key} className="grid grid-cols-[1fr_auto] items-baseline gap-x-3 text-sm">
                  <dt className="font-medium text-foreground/80">{label}</dt>
                  <dd className="font-bold">{value.toFixed(1)}/10</dd>
                  <dd aria-hidden="true" className="col-span-2 mt-1.5 h-2.5 overflow-hidden rounded-full bg-brand-100">
                    <div className="brand-gradient h-full rounded-full" style={{ width: `${Math.max(0, Math.min(100, value * 10))}%` }} />
                  </dd>
                </div>
              );
            })}
          </dl>
          <div className="mt-6 grid gap-2 sm:grid-cols-2">
            <SaveBodyResult kind={kind} image={image} />
            <DownloadCardButton
              label="Download Result Card"
              fileName={bodyCardFileName(kind, analysis.score)}
              draw={async (canvas) =>
                drawBodyCard(canvas, {
                  photo: await loadImage(image),
                  title: info.title,
                  score: analysis.score,
                  label: analysis.ratingLabel,
                  site: window.location.host,
                })
              }
            />
            <Button asChild variant="ghost" className="sm:col-span-2">
              <Link to={info.uploadPath}>
                <RotateCcwIcon aria-hidden="true" />
                Try Another Photo
              </Link>
            </Button>
          </div>
        </div>
      </article>
    </div>
  );
}

/** Saves the photo as photo_type feet or hands; the server scores it again with the same analysis. */
function SaveBodyResult({ kind, image }: { kind: BodyKind; image: string }) {
  const { session } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const save = useSavePhoto();
  if (!session) {
    return (
      <Button
        variant="outline"
        onClick={() => {
          toast.error(SIGN_IN_TO_SAVE_MESSAGE);
          // The result lives in this page's navigation state; sign-in comes back to the upload page.
          const returnTo = BODY_KINDS[kind].uploadPath;
          void navigate(signInPathFor(returnTo), { state: { returnTo, from: location.pathname } });
        }}
      >
        <LogInIcon aria-hidden="true" />
        Sign In to Save
      </Button>
    );
  }
  const saved = save.isSuccess;
  return (
    <Button
      variant="outline"
      disabled={save.isPending || saved}
      aria-busy={save.isPending}
      onClick={() =>
        save.mutate(
          { image: dataUrlToBlob(image), photoType: kind },
          {
            onSuccess: () => toast.success(SAVED_MESSAGE),
            onError: (error) =>
              toast.error(error instanceof ApiError && error.code === 'feature_locked' ? error.message : SAVE_FAILED_MESSAGE),
          },
        )
      }
    >
      {save.isPending ? <LoaderCircleIcon aria-hidden="true" className="animate-spin" /> : saved ? <CheckIcon aria-hidden="true" /> : <SaveIcon aria-hidden="true" />}
      {saved ? 'Saved' : 'Save Results'}
    </Button>
  );
}
