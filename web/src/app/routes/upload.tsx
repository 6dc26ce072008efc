import { CameraIcon, CheckIcon, ImageIcon, ImageUpIcon, LightbulbIcon, RefreshCwIcon, SparklesIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useLocation } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { AnalysingCard } from '@/features/score/components/analysing-card';
import { PhotoFileInputs, usePhotoPicker } from '@/features/upload/components/photo-picker';
import { useFileDrop } from '@/features/upload/hooks/use-file-drop';
import { useUploadAndScore } from '@/features/upload/hooks/use-upload-and-score';
import { CAMERA_COMING_SOON_MESSAGE, supportsCameraCapture } from '@/features/upload/utils/validate-upload';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';

const tips = ['Face the camera, eyes open', 'Soft, even light on your face', 'Only one face in the photo'];

// The results page's code, fetched while the user looks at the preview (router.tsx loads the same chunk).
const preloadResults = () => import('./results');

function initialImage(state: unknown): string | null {
  if (state && typeof state === 'object' && 'image' in state && typeof state.image === 'string') return state.image;
  return null;
}

export default function UploadRoute() {
  const location = useLocation();
  const hintId = useId();
  const [canCapture] = useState(() => supportsCameraCapture());
  const { photo, analyzing, busy, getScore } = useUploadAndScore({
    kind: 'face',
    resultsPath: paths.results.path,
    fileBase: 'photo',
    initial: initialImage(location.state),
    remember: true,
    preloadResults,
  });
  const picker = usePhotoPicker((file) => void photo.choose(file));
  const { dragging, handlers: dropHandlers } = useFileDrop((file) => {
    if (!busy) void photo.choose(file);
  });

  function takePhoto() {
    if (!canCapture) {
      toast.info(CAMERA_COMING_SOON_MESSAGE);
      return;
    }
    picker.openCamera();
  }

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-12">
      <PageTitle title={paths.upload.title} />
      <div className="text-center">
        <h1 className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">{paths.upload.title}</h1>
        <p className="mt-3 text-pretty text-muted-foreground">
          Pick a clear, front-facing photo. We measure symmetry, proportions and skin texture and give you a score
          from 1 to 10, just for fun.
        </p>
      </div>

      <section aria-label="Your photo" className="mt-8 rounded-3xl border bg-card p-4 shadow-sm sm:p-6">
        <div
          {...dropHandlers}
          data-testid="upload-area"
          className={cn(
            'overflow-hidden rounded-2xl border-2 border-dashed transition-colors',
            dragging ? 'border-brand-600 bg-brand-50' : 'border-brand-500/40',
          )}
        >
          {photo.image ? (
            <img
              src={photo.image}
              alt="Preview of your photo"
              className={cn('mx-auto max-h-[28rem] w-full object-contain', busy && 'opacity-60')}
              data-testid="upload-preview"
            />
          ) : (
            <button
              type="button"
              onClick={picker.openGallery}
              disabled={busy}
              aria-describedby={hintId}
              className="flex w-full cursor-pointer flex-col items-center gap-3 px-6 py-12 text-center outline-none focus-visible:ring-2 focus-visible:ring-ring sm:py-16"
            >
              <span
                aria-hidden="true"
                className="brand-gradient grid size-16 place-items-center rounded-2xl text-white shadow-lg shadow-brand-600/30"
              >
                <ImageUpIcon className="size-7" />
              </span>
              <span className="text-lg font-bold">{dragging ? 'Drop your photo here' : 'Choose a photo'}</span>
              <span id={hintId} className="text-sm text-muted-foreground">
                Click to choose, or drag and drop an image here (under 10MB)
              </span>
            </button>
          )}
        </div>

        {analyzing ? (
          <div className="mt-4">
            <AnalysingCard />
          </div>
        ) : null}

        <div className="mt-4 grid grid-cols-2 gap-2 sm:gap-3">
          <Button variant="outline" onClick={picker.openGallery} disabled={busy}>
            <ImageIcon aria-hidden="true" />
            From Gallery
          </Button>
          <Button variant="outline" onClick={takePhoto} disabled={busy}>
            <CameraIcon aria-hidden="true" />
            Take Photo
          </Button>
          {photo.image ? (
            <Button variant="secondary" className="col-span-2" onClick={photo.clear} disabled={busy}>
              <RefreshCwIcon aria-hidden="true" />
              Change Photo
            </Button>
          ) : null}
          <Button size="lg" className="col-span-2" onClick={getScore} disabled={busy} aria-busy={analyzing}>
            <SparklesIcon aria-hidden="true" />
            {analyzing ? 'Analyzing...' : 'Get My Score!'}
          </Button>
        </div>

        <PhotoFileInputs
          {...picker}
          gallery={{ label: 'Choose a photo from your gallery', testId: 'gallery-input' }}
          camera={canCapture ? { label: 'Take a photo with your camera', testId: 'camera-input', capture: 'user' } : undefined}
        />
      </section>

      <section aria-labelledby="tips-heading" className="mt-6 rounded-3xl bg-brand-50/60 p-5">
        <h2 id="tips-heading" className="flex items-center gap-2 font-bold">
          <LightbulbIcon className="size-4 text-brand-700" aria-hidden="true" />
          For the best result
        </h2>
        <ul className="mt-2 grid gap-1.5 text-sm text-muted-foreground sm:grid-cols-3 sm:gap-3">
          {tips.map((tip) => (
            <li key={tip} className="flex items-start gap-1.5">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
              {tip}
            </li>
          ))}
        </ul>
        <p className="mt-3 text-xs text-muted-foreground">
          Your photo is analyzed in real time and not stored unless you save it. Scores are for entertainment only.
        </p>
      </section>
    </div>
  );
}
