import { PawPrintIcon, RotateCcwIcon, Share2Icon } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { isPetResultState, type PetResultState } from '@/features/pet/types';
import { drawPetCard, petCardFileName } from '@/features/pet/utils/pet-card';
import { petScoreSentence, petTitle } from '@/features/pet/utils/pet-title';
import { DownloadCardButton } from '@/components/download-card-button';
import { SharePanel } from '@/components/share-panel';
import { petShareText } from '@/features/score/utils/share';
import { loadImage } from '@/lib/image';

export default function PetResultsRoute() {
  const location = useLocation();
  if (!isPetResultState(location.state)) return <Navigate to={paths.petUpload.path} replace />;
  return <PetResults key={location.key} result={location.state} />;
}

function PetResults({ result }: { result: PetResultState }) {
  const { analysis, image } = result;
  const score = analysis.score;
  const title = analysis.title || petTitle(score);
  const [sharing, setSharing] = useState(false);
  const site = window.location.origin;
  const shareContent = {
    title: 'My pet’s cuteness score',
    text: petShareText(score, title, `${site}${paths.petUpload.path}`),
    url: `${site}${paths.petUpload.path}`,
  };

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      <PageTitle title={paths.petResults.title} />
      <article className="overflow-hidden rounded-3xl border bg-card shadow-sm">
        <img src={image} alt="Your pet" className="max-h-[28rem] w-full object-cover" data-testid="pet-photo" />
        <div className="p-6 text-center sm:p-8">
          <p className="flex items-end justify-center gap-2" data-testid="pet-score">
            <span className="bg-linear-to-br from-amber-500 to-pink-600 bg-clip-text text-7xl leading-none font-black text-transparent">
              {score}
            </span>
            <span className="pb-2 text-lg font-semibold text-muted-foreground">out of 10</span>
          </p>
          <h1 className="mt-4 flex items-center justify-center gap-2 text-2xl font-extrabold sm:text-3xl" data-testid="pet-title">
            <PawPrintIcon className="size-6 text-amber-600" aria-hidden="true" />
            {title}
          </h1>
          <p className="mt-2 text-muted-foreground">{petScoreSentence(score)}</p>

          <div className="mt-6 grid gap-2 sm:grid-cols-2">
            <Button variant="outline" onClick={() => setSharing(true)}>
              <Share2Icon aria-hidden="true" />
              Share Results
            </Button>
            <DownloadCardButton
              label="Download"
              fileName={petCardFileName(score)}
              draw={async (canvas) =>
                drawPetCard(canvas, { photo: await loadImage(image), score, title, site: window.location.host })
              }
            />
            <Button asChild className="sm:col-span-2">
              <Link to={paths.petUpload.path}>
                <RotateCcwIcon aria-hidden="true" />
                Try Another Photo
              </Link>
            </Button>
          </div>
        </div>
      </article>

      <Dialog open={sharing} onOpenChange={setSharing}>
        <DialogContent className="max-w-xl">
          <DialogHeader>
            <DialogTitle>Share Results</DialogTitle>
            <DialogDescription>Send your pet&apos;s score to friends.</DialogDescription>
          </DialogHeader>
          <SharePanel content={shareContent} bare />
        </DialogContent>
      </Dialog>
    </div>
  );
}
