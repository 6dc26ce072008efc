import { PawPrintIcon } from 'lucide-react';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { PetAnalysingCard } from '@/features/pet/components/pet-analysing-card';
import { ChosenPhoto, PhotoFileInputs, PickPhotoButtons, usePhotoPicker } from '@/features/upload/components/photo-picker';
import { useUploadAndScore } from '@/features/upload/hooks/use-upload-and-score';

// The results page's code, fetched while the user looks at the preview (router.tsx loads the same chunk).
const preloadResults = () => import('./pet-results');

export default function PetUploadRoute() {
  const { photo, analyzing, busy, getScore } = useUploadAndScore({
    kind: 'pet',
    resultsPath: paths.petResults.path,
    fileBase: 'pet',
    preloadResults,
  });
  const picker = usePhotoPicker((file) => void photo.choose(file));

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
          <ChosenPhoto
            image={photo.image}
            alt="Preview of your pet's photo"
            testId="pet-preview"
            busy={busy}
            analyzing={analyzing}
            analysingIndicator={
              <div className="mt-4">
                <PetAnalysingCard />
              </div>
            }
            scoreLabel="Get My Pet's Score!"
            onChange={photo.clear}
            onScore={getScore}
          />
        ) : (
          <div className="grid gap-3 rounded-2xl border-2 border-dashed border-amber-300 p-6 text-center sm:p-10">
            <p className="text-muted-foreground">Show us your cat, dog, bunny or any other friend.</p>
            <PickPhotoButtons picker={picker} disabled={busy} />
          </div>
        )}
        <PhotoFileInputs
          {...picker}
          gallery={{ label: 'Choose a photo of your pet', testId: 'pet-gallery-input' }}
          camera={{ label: 'Take a photo of your pet', testId: 'pet-camera-input', capture: 'environment' }}
        />
      </section>
      <p className="mt-4 text-center text-xs text-muted-foreground">
        Your pet&apos;s photo is analyzed in real time and never stored. Just for fun!
      </p>
    </div>
  );
}
