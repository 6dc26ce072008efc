import { CameraIcon, ImageIcon, RefreshCwIcon, SparklesIcon } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/**
 * The pieces every upload page (face, pet, feet and hands) shares around
 * `useUploadAndScore`: the hidden gallery and camera inputs and the ways to
 * open them, the buttons that do, and the chosen photo with Change Photo and
 * the score button. Each page keeps only its own words and layout.
 */

export type PhotoPicker = ReturnType<typeof usePhotoPicker>;

/** The two file inputs' refs; a picked file goes to `choose` and the input is emptied, so the same file can be picked again. */
export function usePhotoPicker(choose: (file: File | undefined) => void) {
  const galleryRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  return {
    galleryRef,
    cameraRef,
    openGallery: () => galleryRef.current?.click(),
    openCamera: () => cameraRef.current?.click(),
    pick(input: HTMLInputElement) {
      const file = input.files?.[0];
      input.value = '';
      choose(file);
    },
  };
}

type FileInputProps = { label: string; testId?: string };

type PhotoFileInputsProps = {
  galleryRef: PhotoPicker['galleryRef'];
  cameraRef: PhotoPicker['cameraRef'];
  pick: PhotoPicker['pick'];
  gallery: FileInputProps;
  /** The camera's input; left out where the device cannot capture. */
  camera?: FileInputProps & { capture: 'user' | 'environment' };
};

/** The hidden inputs behind the gallery and camera buttons (`{...picker}` gives the first three props). */
export function PhotoFileInputs({ galleryRef, cameraRef, pick, gallery, camera }: PhotoFileInputsProps) {
  return (
    <>
      <input
        ref={galleryRef}
        type="file"
        accept="image/*"
        className="hidden"
        tabIndex={-1}
        aria-label={gallery.label}
        onChange={(event) => pick(event.currentTarget)}
        data-testid={gallery.testId}
      />
      {camera ? (
        <input
          ref={cameraRef}
          type="file"
          accept="image/*"
          capture={camera.capture}
          className="hidden"
          tabIndex={-1}
          aria-label={camera.label}
          onChange={(event) => pick(event.currentTarget)}
          data-testid={camera.testId}
        />
      ) : null}
    </>
  );
}

/** Upload from Gallery and Take a Photo, before a photo is chosen. */
export function PickPhotoButtons({ picker, disabled }: { picker: PhotoPicker; disabled: boolean }) {
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <Button onClick={picker.openGallery} disabled={disabled}>
        <ImageIcon aria-hidden="true" />
        Upload from Gallery
      </Button>
      <Button variant="outline" onClick={picker.openCamera} disabled={disabled}>
        <CameraIcon aria-hidden="true" />
        Take a Photo
      </Button>
    </div>
  );
}

type ChosenPhotoProps = {
  image: string;
  alt: string;
  testId: string;
  busy: boolean;
  analyzing: boolean;
  /** What shows while the server scores the photo. */
  analysingIndicator: ReactNode;
  /** The score button's words ('Get My Score', "Get My Pet's Score!"). */
  scoreLabel: string;
  onChange: () => void;
  onScore: () => void;
};

/** The chosen photo's preview, the page's analysing indicator, Change Photo and the score button. */
export function ChosenPhoto({ image, alt, testId, busy, analyzing, analysingIndicator, scoreLabel, onChange, onScore }: ChosenPhotoProps) {
  return (
    <>
      <img src={image} alt={alt} className={cn('mx-auto max-h-[26rem] w-full rounded-2xl object-contain', busy && 'opacity-60')} data-testid={testId} />
      {analyzing ? analysingIndicator : null}
      <div className="mt-4 grid gap-2 sm:grid-cols-2">
        <Button variant="outline" onClick={onChange} disabled={busy}>
          <RefreshCwIcon aria-hidden="true" />
          Change Photo
        </Button>
        <Button onClick={onScore} disabled={busy} aria-busy={analyzing}>
          <SparklesIcon aria-hidden="true" />
          {analyzing ? 'Analyzing...' : scoreLabel}
        </Button>
      </div>
    </>
  );
}
