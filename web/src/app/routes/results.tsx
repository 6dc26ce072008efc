import { ArrowRightIcon, CrownIcon, HandshakeIcon, RotateCcwIcon, SparklesIcon, TrophyIcon, WandSparklesIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { Confetti, showsConfetti } from '@/components/confetti';
import { DownloadCardButton } from '@/components/download-card-button';
import { DownloadPhotoButton, photoDownloadName } from '@/components/download-photo-button';
import { PageTitle } from '@/components/page-title';
import { SharePanel } from '@/components/share-panel';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ShareExpiryChoice, ShareLinkLifetime } from '@/features/photos/components/share-link-expiry';
import { HeldForReview } from '@/features/photos/components/share-link-section';
import { BeforeAfterSlider, BusyOverlay } from '@/features/edits/components/before-after-slider';
import { ResultsEditCard } from '@/features/edits/components/results-edit-card';
import { useResultEdits } from '@/features/edits/hooks/use-result-edits';
import { BreakdownList } from '@/features/score/components/breakdown-list';
import { LeaderboardDialog } from '@/features/score/components/leaderboard-dialog';
import { PhotoOverlay } from '@/features/score/components/photo-overlay';
import { RewardBanner } from '@/features/score/components/reward-banner';
import { SaveResultButton } from '@/features/score/components/save-result-button';
import { ScoreCircle } from '@/features/score/components/score-circle';
import { isResultState, type FaceAnalysis, type ResultState } from '@/features/score/types';
import { clearPendingResult, readPendingResult } from '@/features/score/utils/pending-result';
import { ratingLabel, formatScore } from '@/features/score/utils/rating';
import { drawResultCard, resultCardFileName } from '@/features/score/utils/result-card';
import { opensLeaderboardDialog } from '@/features/score/utils/rewards';
import { faceShareText } from '@/features/score/utils/share';
import { imageUrlToBlob, loadImage } from '@/lib/image';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { analysisErrorMessage, GENERIC_ANALYSIS_ERROR, useAnalyzePhoto } from '@/resources/analyses/analyses';
import { useCreateShareLink, type ShareExpiry } from '@/resources/photos/photos';

export default function ResultsRoute() {
  const location = useLocation();
  if (!isResultState(location.state)) {
    // Back from signing in ('Sign In to Save'): the result kept for this tab, edits and all.
    const pending = readPendingResult();
    if (pending) return <Navigate to={paths.results.path} replace state={pending} />;
    return <Navigate to={paths.home.path} replace />;
  }
  // Keyed by the photo, so a new result starts with fresh state.
  return <Results key={location.key} result={location.state} />;
}

function Results({ result }: { result: ResultState }) {
  const { image } = result;
  // The score on screen and the image it belongs to: the original's, until
  // Analyze scores an edit (the saved score stays the original's either way).
  const [scored, setScored] = useState<{ analysis: FaceAnalysis; image: string }>(() =>
    result.edits?.analysis
      ? { analysis: result.edits.analysis, image: result.edits.analyzedImage ?? result.edits.latest }
      : { analysis: result.analysis, image },
  );
  const analysis = scored.analysis;
  const score = analysis.score;
  const label = analysis.ratingLabel || ratingLabel(score);
  const [leaderboardOpen, setLeaderboardOpen] = useState(() => opensLeaderboardDialog(result.analysis.score));
  const edits = useResultEdits(image, result.edits);
  // The result is on screen (again): nothing is waiting in this tab any more.
  useEffect(clearPendingResult, []);
  // What 'Sign In to Save' keeps: the result as it is now, with its edits.
  const current: ResultState = {
    analysis: result.analysis,
    image,
    edits: edits.edited
      ? {
          latest: edits.edited,
          needsAnalyze: edits.needsAnalyze,
          ...(scored.image === image ? {} : { analysis, analyzedImage: scored.image }),
        }
      : undefined,
  };
  const analyze = useAnalyzePhoto('face');
  const site = window.location.origin;
  // Once a signed-in user saves the result, shares point at its public page,
  // whose link preview shows the score card; until then, at the site. The
  // page works as long as the user chose before saving (until turned off by default).
  // A photo held for review has no public page yet: point at the site meanwhile.
  const { session } = useSession();
  const [expiresIn, setExpiresIn] = useState<ShareExpiry>('never');
  const shareLink = useCreateShareLink();
  const url = shareLink.data && !shareLink.data.held_for_review ? shareLink.data.share_url : site;
  const shareContent = {
    title: 'My PrettyScore',
    text: faceShareText(formatScore(score), label, url),
    url,
  };

  async function analyzeEdited() {
    const target = edits.imageUrl;
    let photo: Blob;
    try {
      photo = await imageUrlToBlob(target);
    } catch {
      toast.error(GENERIC_ANALYSIS_ERROR);
      return;
    }
    analyze.mutate(photo, {
      onSuccess: (fresh) => {
        setScored({ analysis: fresh, image: target });
        edits.markAnalyzed();
        toast.success(`Your edited photo scores ${formatScore(fresh.score)}/10!`);
      },
      onError: (error) => toast.error(analysisErrorMessage(error)),
    });
  }

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <PageTitle title={paths.results.title} />
      {showsConfetti(result.analysis.score) ? <Confetti /> : null}

      <h1 className="text-center text-3xl font-extrabold tracking-tight sm:text-4xl">{paths.results.title}</h1>
      <p className="mt-2 text-center text-sm text-muted-foreground">Scores are for entertainment only.</p>

      <div className="mt-6 empty:hidden">
        <RewardBanner score={score} onJoinLeaderboard={() => setLeaderboardOpen(true)} />
      </div>

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-2 lg:gap-8">
        {edits.edited ? (
          <BeforeAfterSlider before={image} after={edits.edited} busy={edits.busy} />
        ) : (
          <div className="relative">
            <PhotoOverlay image={image} analysis={analysis} />
            {edits.busy ? <BusyOverlay /> : null}
          </div>
        )}

        <div className="grid gap-6">
          <section aria-labelledby="score-heading" className="rounded-3xl border bg-card p-5 shadow-sm sm:p-6">
            <h2 id="score-heading" className="sr-only">
              Your score
            </h2>
            <ScoreCircle score={score} label={label} emoji={analysis.emoji} />
            <ScoreSubject original={image} edited={edits.edited} scored={scored.image} />
            <h3 className="mt-6 mb-3 font-bold">Breakdown</h3>
            <BreakdownList breakdown={analysis.breakdown} />
          </section>

          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            <SaveResultButton
              original={image}
              edited={edits.edited}
              result={current}
              onSaved={(photo) =>
                shareLink.mutate(
                  { id: photo.id, expiresIn },
                  {
                    onSuccess: (link) => {
                      if (link.held_for_review) toast.info(link.message);
                    },
                  },
                )
              }
            />
            <DownloadPhotoButton url={edits.imageUrl} fileName={photoDownloadName('prettyscore-photo', Boolean(edits.edited))} />
            <DownloadCardButton
              fileName={resultCardFileName(score)}
              draw={async (canvas) =>
                drawResultCard(canvas, {
                  photo: await loadImage(edits.imageUrl),
                  score,
                  label,
                  breakdown: analysis.breakdown,
                  site: window.location.host,
                })
              }
            />
            <Button asChild variant="secondary">
              <Link to={paths.upload.path}>
                <RotateCcwIcon aria-hidden="true" />
                Try Again
              </Link>
            </Button>
          </div>

          {session ? (
            <div className="rounded-2xl border p-4" data-testid="result-share-link">
              {shareLink.data?.held_for_review ? (
                <HeldForReview message={shareLink.data.message} />
              ) : shareLink.data ? (
                <ShareLinkLifetime expiresAt={shareLink.data.expires_at ?? null} />
              ) : (
                <>
                  <ShareExpiryChoice value={expiresIn} onChange={setExpiresIn} disabled={shareLink.isPending} />
                  <p className="mt-2 text-xs text-muted-foreground">Saving makes a public page for your shares. Turn it off any time in My Photos.</p>
                </>
              )}
            </div>
          ) : null}
        </div>
      </div>

      <div className="mt-6 grid gap-6">
        <ResultsEditCard edits={edits} onAnalyze={() => void analyzeEdited()} analyzing={analyze.isPending} />

        <SharePanel content={shareContent} />

        <nav aria-label="What next" className="grid gap-3 sm:grid-cols-2">
          <NextLink
            to={paths.editor.path}
            // The photo as taken goes along: the editor's Save stores (and scores) it, with the edit beside it.
            state={{ image: edits.imageUrl, analysis, originalImage: image }}
            icon={WandSparklesIcon}
            title="Open in the Editor"
            text="Retouch your photo with AI tools."
          />
          <NextLink to={paths.premium.path} icon={CrownIcon} title="Go Premium" text="Unlimited AI edits and more." />
          <NextLink
            to={paths.claimOpportunities.path}
            icon={TrophyIcon}
            title="Claim Opportunities"
            text="Apply for modelling and brand opportunities."
          />
          <NextLink
            to={paths.partnersApply.path}
            icon={HandshakeIcon}
            title="Become a Partner"
            text="Share PrettyScore and earn up to 30% commission."
          />
        </nav>
      </div>

      <LeaderboardDialog open={leaderboardOpen} onOpenChange={setLeaderboardOpen} result={current} />
    </div>
  );
}

/**
 * Which image the score on screen belongs to, once there is an edit: the
 * original's score is the one that is saved; an edit has its own only when
 * the user asked for it (Analyze).
 */
function ScoreSubject({ original, edited, scored }: { original: string; edited: string | null; scored: string }) {
  if (!edited) return null;
  const text =
    scored === original
      ? 'Score of your original photo. Saving keeps it with your edit.'
      : scored === edited
        ? 'Score of your edited photo. Saving keeps your original photo’s score.'
        : 'Score of an earlier edit. Analyze scores your latest edit.';
  return (
    <p data-testid="score-subject" className="mt-3 text-center text-sm text-muted-foreground">
      {text}
    </p>
  );
}

function NextLink({
  to,
  state,
  icon: Icon,
  title,
  text,
}: {
  to: string;
  state?: unknown;
  icon: typeof SparklesIcon;
  title: string;
  text: string;
}) {
  return (
    <Link
      to={to}
      state={state}
      className="group flex items-center gap-4 rounded-2xl border bg-card p-4 shadow-sm transition-colors hover:border-brand-500 hover:bg-brand-50"
    >
      <span aria-hidden="true" className="grid size-11 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700">
        <Icon className="size-5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-bold">{title}</span>
        <span className="block text-sm text-muted-foreground">{text}</span>
      </span>
      <ArrowRightIcon aria-hidden="true" className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5" />
    </Link>
  );
}
