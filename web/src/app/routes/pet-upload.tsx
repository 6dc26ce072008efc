import { CameraIcon, ImageIcon, PawPrintIcon, RefreshCwIcon, SparklesIcon } from 'lucide-react';
import { useRef } from 'react';
import { PageTitle } from '@/components/layout/page-title';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { PetAnalysingCard } from '@/features/pet/components/pet-analysing-card';
import { useUploadAndScore } from '@/features/upload/hooks/use-upload-and-score';
import { cn } from '@/lib/utils';

// The results page's code, fetched while the user looks at the preview (router.tsx loads the same chunk).
const preloadResults = () => import('./pet-results');

export default function PetUploadRoute() {
  const galleryRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const { photo, analyzing, busy, getScore } = useUploadAndScore({
    kind: 'pet',
    resultsPath: paths.petResults.path,
    fileBase: 'pet',
    preloadResults,
  });

  function pick(input: HTMLInputElement) {
    const file = input.files?.[0];
    input.value = '';
    void photo.choose(file);
  }

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      <PageTitle title={paths.petUpload.title} />
      <div className="text-center">
        <span
          aria-hidden="true"
          className="mx-auto grid size-14 place-items-center rounded-2xl bg-linear-to-br from-amber-400 to-pink-500 text-white shadow-lg"
        >
          <PawPrintIcon className="size-7" />
        </span>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight sm:text-4xl">Pet Cuteness Score</h1>
        <p className="mt-2 inline-flex rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">
          Free for all users!
        </p>
      </div>

      <section aria-label="Your pet's photo" className="mt-8 rounded-3xl border bg-card p-4 shadow-sm sm:p-6">
        {photo.image ? (
          <>
            <img
              src={photo.image}
              alt="Preview of your pet's photo"
              className={cn('mx-auto max-h-[26rem] w-full rounded-2xl object-contain', busy && 'opacity-60')}
              data-testid="pet-preview"
            />
            {analyzing ? (
              <div className="mt-4">
                <PetAnalysingCard />
              </div>
            ) : null}
            <div className="mt-4 grid gap-2 sm:grid-cols-2">
              <Button variant="outline" onClick={photo.clear} disabled={busy}>
                <RefreshCwIcon aria-hidden="true" />
                Change Photo
              </Button>
              <Button onClick={getScore} disabled={busy} aria-busy={analyzing}>
                <SparklesIcon aria-hidden="true" />
                {analyzing ? 'Analyzing...' : "Get My Pet's Score!"}
              </Button>
            </div>
          </>
        ) : (
          <div className="grid gap-3 rounded-2xl border-2 border-dashed border-amber-300 p-6 text-center sm:p-10">
            <p className="text-muted-foreground">Show us your cat, dog, bunny or any other friend.</p>
            <div className="grid gap-2 sm:grid-cols-2">
              <Button onClick={() => galleryRef.current?.click()} disabled={busy}>
                <ImageIcon aria-hidden="true" />
                Upload from Gallery
              </Button>
              <Button variant="outline" onClick={() => cameraRef.current?.click()} disabled={busy}>
                <CameraIcon aria-hidden="true" />
                Take a Photo
              </Button>
            </div>
          </div>
        )}
        <input
          ref={galleryRef}
          type="file"
          accept="image/*"
          className="hidden"
          tabIndex={-1}
          aria-label="Choose a photo of your pet"
          onChange={(event) => pick(event.currentTarget)}
          data-testid="pet-gallery-input"
        />
        <input
          ref={cameraRef}
          type="file"
          accept="image/*"
          capture="environment"
          className="hidden"
          tabIndex={-1}
          aria-label="Take a photo of your pet"
          onChange={(event) => pick(event.currentTarget)}
          data-testid="pet-camera-input"
        />
      </section>
      <p className="mt-4 text-center text-xs text-muted-foreground">
        Your pet&apos;s photo is analyzed in real time and never stored. Just for fun!
      </p>
    </div>
  );
}
