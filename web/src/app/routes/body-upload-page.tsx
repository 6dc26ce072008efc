import { FootprintsIcon, HandIcon, LoaderCircleIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { BODY_KINDS, type BodyKind } from '@/features/body-score/kinds';
import { ChosenPhoto, PhotoFileInputs, PickPhotoButtons, usePhotoPicker } from '@/features/upload/components/photo-picker';
import { useUploadAndScore } from '@/features/upload/hooks/use-upload-and-score';
import { FEET_HANDS_UPLOAD_MESSAGES } from '@/features/upload/utils/validate-upload';

type BodyUploadPageProps = {
  kind: BodyKind;
  /** Loads the results page's code while the user looks at the preview. */
  preloadResults: () => Promise<unknown>;
};

/**
 * /feet-upload and /hands-upload (behind their feature gates): pick, preview,
 * score on the server. A page of its own because it joins the upload flow
 * and the feet and hands wording, two features.
 */
export function BodyUploadPage({ kind, preloadResults }: BodyUploadPageProps) {
  const info = BODY_KINDS[kind];
  const { photo, analyzing, busy, getScore } = useUploadAndScore({
    kind,
    resultsPath: info.resultsPath,
    fileBase: kind,
    preloadResults,
    messages: FEET_HANDS_UPLOAD_MESSAGES,
  });
  const picker = usePhotoPicker((file) => void photo.choose(file));
  const Icon = kind === 'feet' ? FootprintsIcon : HandIcon;

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      <div className="text-center">
        <span aria-hidden="true" className="brand-gradient mx-auto grid size-14 place-items-center rounded-2xl text-white shadow-lg">
          <Icon className="size-7" />
        </span>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight sm:text-4xl">{info.title}</h1>
        <p className="mt-2 text-muted-foreground">Upload a photo of {info.subject} for a just-for-fun score out of 10.</p>
      </div>

      <section aria-label={`The photo of ${info.subject}`} className="mt-8 rounded-3xl border bg-card p-4 shadow-sm sm:p-6">
        {photo.image ? (
          <ChosenPhoto
            image={photo.image}
            alt={`Preview of ${info.subject}`}
            testId="body-preview"
            busy={busy}
            analyzing={analyzing}
            analysingIndicator={
              <p role="status" className="mt-4 flex items-center justify-center gap-2 font-semibold">
                <LoaderCircleIcon aria-hidden="true" className="size-5 animate-spin text-primary" />
                Analyzing {info.subject}...
              </p>
            }
            scoreLabel="Get My Score"
            onChange={photo.clear}
            onScore={getScore}
          />
        ) : (
          <div className="grid gap-4 rounded-2xl border-2 border-dashed border-brand-200 p-6 text-center sm:p-10">
            <ul className="mx-auto grid gap-1 text-left text-sm text-muted-foreground">
              {info.tips.map((tip) => (
                <li key={tip}>• {tip}</li>
              ))}
            </ul>
            <PickPhotoButtons picker={picker} disabled={busy} />
            <p className="text-xs text-muted-foreground">JPEG, PNG or WebP, up to 10MB.</p>
          </div>
        )}
        <PhotoFileInputs
          {...picker}
          gallery={{ label: `Choose a photo of ${info.subject}`, testId: 'body-gallery-input' }}
          camera={{ label: `Take a photo of ${info.subject}`, capture: 'environment' }}
        />
        {!photo.image ? (
          <div className="mt-4 text-center">
            <Button variant="link" onClick={getScore} disabled={busy}>
              Get My Score
            </Button>
          </div>
        ) : null}
      </section>
      <p className="mt-4 text-center text-xs text-muted-foreground">
        Your photo is analyzed on our server and not kept unless you save it. Just for fun!
      </p>
    </div>
  );
}
