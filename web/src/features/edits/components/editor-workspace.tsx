import {
  DownloadIcon,
  ImageUpIcon,
  LoaderCircleIcon,
  PaletteIcon,
  Redo2Icon,
  SaveIcon,
  Share2Icon,
  SlidersHorizontalIcon,
  SparklesIcon,
  Undo2Icon,
  WandSparklesIcon,
} from 'lucide-react';
import { useId, useReducer, useState } from 'react';
import { SharePanel } from '@/components/share-panel';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ApiError } from '@/lib/api-client';
import { downloadImageUrl } from '@/lib/image';
import { toast } from '@/lib/toast';
import { useEditPhoto } from '@/resources/edits/edit-photo';
import { useEditAllowance } from '@/resources/edits/get-edits-quota';
import type { Adjustments } from '@/resources/edits/types';
import { adjustmentsFilter, DEFAULT_ADJUSTMENTS, isDefaultAdjustments } from '../utils/adjustments';
import { editErrorMessage, refuseEdit, type EditKind } from '../utils/edit-errors';
import {
  DOWNLOAD_FAILED,
  editShareText,
  editSuccessMessage,
  NO_EDITED_IMAGE_TO_DOWNLOAD,
  NO_PHOTO_TO_SAVE,
  PHOTO_DOWNLOADED,
} from '../utils/edit-messages';
import { useDisplayScale } from '../hooks/use-display-scale';
import { canRedo, canUndo, currentEntry, historyReducer, isEdited, originalEntry, startHistory, type EditHistory } from '../utils/history';
import { editorBackgrounds, editorQuickEdits, editorStyles, promptKind } from '../utils/presets';
import { AdjustmentSliders } from './adjustment-sliders';
import { BeforeAfterSlider, BusyOverlay } from './before-after-slider';
import { PendingIcon, PromptTextarea } from './edit-controls';
import { EditsRemainingPill, OutOfEditsNotice } from './edits-remaining';

export const SAVE_FAILED = 'Failed to save photo';
export const SAVED = 'Photo saved to your dashboard!';

export type SavedScore = { score: number; label: string };

/** What Save hands to the page: the image shown now (sliders applied) and the one the history started from. */
export type SaveImages = { current: string; start: string };

type EditorWorkspaceProps = {
  /** The photo to edit (keyed by the route: a new upload remounts, resetting history and score). */
  image: string | null;
  initialScore?: SavedScore;
  onUploadClick: () => void;
  uploading?: boolean;
  /** Signed in: saving is possible; otherwise onSignInToSave runs. */
  canSave: boolean;
  onSignInToSave: () => void;
  /**
   * Saves the photo (the page decides how: a new photo with its original
   * scored and the edit attached, or the edit attached to a saved photo);
   * resolves to the server's score of the saved photo.
   */
  save: (images: SaveImages) => Promise<SavedScore>;
  /** The gated feature these edits belong to: the server checks it on every edit (/editor: `ai_editor`). */
  feature?: 'ai_editor';
};

const EMPTY: EditHistory = { entries: [], index: -1 };

/**
 * The /editor (docs/spec-rules.md): AI quick edits (enhance, upscale to 4K,
 * retouch, background, style, custom), four sliders with a live CSS preview,
 * undo/redo over a history that a new edit truncates, save, share, download.
 * The sliders are applied for real by the server (a free adjustments-only
 * edit) before saving, downloading or the next AI edit.
 */
export function EditorWorkspace({
  image,
  initialScore,
  onUploadClick,
  uploading = false,
  canSave,
  onSignInToSave,
  save,
  feature,
}: EditorWorkspaceProps) {
  const [history, dispatch] = useReducer(historyReducer, image, (start) => (start ? startHistory(start) : EMPTY));
  const [adjustments, setAdjustments] = useState<Adjustments>(DEFAULT_ADJUSTMENTS);
  const [score, setScore] = useState<SavedScore | undefined>(initialScore);
  const [pending, setPending] = useState<string | null>(null);
  const [shareOpen, setShareOpen] = useState(false);
  const [style, setStyle] = useState<string>(editorStyles[0].value);
  const [backdrop, setBackdrop] = useState<string>(editorBackgrounds[0].value);
  const [prompt, setPrompt] = useState('');
  const ids = useId();
  const allowance = useEditAllowance();
  const edit = useEditPhoto();
  const hasImage = history.entries.length > 0;
  const busy = pending !== null;
  const current = hasImage ? currentEntry(history) : null;
  const adjusted = !isDefaultAdjustments(adjustments);
  const [photoFrame, displayScale] = useDisplayScale(current?.imageUrl);
  const filter = adjustmentsFilter(adjustments, displayScale);

  /** The current image with the sliders applied by the server (free), as a new history step. */
  async function bake(): Promise<string> {
    const url = current!.imageUrl;
    if (!adjusted) return url;
    const result = await edit.mutateAsync({ imageUrl: url, adjustments, ...(feature ? { feature } : {}) });
    dispatch({ type: 'append', entry: { imageUrl: result.editedImageUrl, label: 'Adjustments' } });
    setAdjustments(DEFAULT_ADJUSTMENTS);
    return result.editedImageUrl;
  }

  async function runEdit(label: string, text: string, kind: EditKind) {
    if (refuseEdit({ busy, hasImage, out: allowance.out, prompt: text })) return;
    setPending(label);
    try {
      const base = await bake();
      const result = await edit.mutateAsync({ imageUrl: base, prompt: text.trim(), ...(feature ? { feature } : {}) });
      dispatch({ type: 'append', entry: { imageUrl: result.editedImageUrl, prompt: text.trim(), label } });
      toast.success(editSuccessMessage(kind, result.editsRemaining));
      if (label === 'Custom') setPrompt('');
    } catch (error) {
      toast.error(editErrorMessage(error));
    } finally {
      setPending(null);
    }
  }

  async function onSave() {
    if (busy) return;
    if (!hasImage) {
      toast.error(NO_PHOTO_TO_SAVE);
      return;
    }
    if (!canSave) {
      onSignInToSave();
      return;
    }
    setPending('save');
    try {
      const url = await bake();
      const saved = await save({ current: url, start: originalEntry(history).imageUrl });
      setScore(saved);
      toast.success(SAVED);
    } catch (error) {
      // The server's words say why (no face in a photo saved as a face, a locked feature…); a fault says nothing more.
      const why = error instanceof ApiError && error.status < 500 ? error.message : undefined;
      toast.error(SAVE_FAILED, why ? { description: why } : undefined);
    } finally {
      setPending(null);
    }
  }

  async function onDownload() {
    if (busy) return;
    if (!hasImage || (!isEdited(history) && !adjusted)) {
      toast.error(NO_EDITED_IMAGE_TO_DOWNLOAD);
      return;
    }
    setPending('download');
    try {
      await downloadImageUrl(await bake(), 'prettyscore-edited');
      toast.success(PHOTO_DOWNLOADED);
    } catch {
      toast.error(DOWNLOAD_FAILED);
    } finally {
      setPending(null);
    }
  }

  const editDisabled = busy || allowance.out;
  const site = window.location.origin;

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <section aria-label="Your photo" className="grid gap-4" ref={photoFrame}>
        {current ? (
          isEdited(history) ? (
            <BeforeAfterSlider
              before={originalEntry(history).imageUrl}
              after={current.imageUrl}
              busy={busy}
              afterStyle={filter ? { filter } : undefined}
            />
          ) : (
            <figure className="relative overflow-hidden rounded-3xl border bg-muted shadow-sm">
              <img src={current.imageUrl} alt="Your photo" className="block h-auto w-full" style={filter ? { filter } : undefined} data-testid="editor-image" />
              {busy ? <BusyOverlay text={pending === 'save' ? 'Saving...' : 'Working on your photo...'} /> : null}
            </figure>
          )
        ) : (
          <button
            type="button"
            onClick={onUploadClick}
            disabled={uploading}
            className="flex min-h-72 w-full cursor-pointer flex-col items-center justify-center gap-3 rounded-3xl border-2 border-dashed border-brand-500/40 bg-card px-6 py-12 text-center outline-none hover:border-brand-600 focus-visible:ring-2 focus-visible:ring-ring"
            data-testid="editor-drop-zone"
          >
            <span aria-hidden="true" className="brand-gradient grid size-16 place-items-center rounded-2xl text-white shadow-lg shadow-brand-600/30">
              {uploading ? <LoaderCircleIcon className="size-7 animate-spin" /> : <ImageUpIcon className="size-7" />}
            </span>
            <span className="text-lg font-bold">Upload a photo to edit</span>
            <span className="text-sm text-muted-foreground">Click to choose, or drag and drop an image here (under 10MB)</span>
          </button>
        )}

        <div className="flex flex-wrap items-center gap-2">
          <Button variant="outline" size="sm" onClick={onUploadClick} disabled={busy || uploading}>
            <ImageUpIcon aria-hidden="true" />
            {hasImage ? 'New Photo' : 'Upload Photo'}
          </Button>
          <Button variant="outline" size="sm" onClick={() => dispatch({ type: 'undo' })} disabled={busy || !canUndo(history)}>
            <Undo2Icon aria-hidden="true" />
            Undo
          </Button>
          <Button variant="outline" size="sm" onClick={() => dispatch({ type: 'redo' })} disabled={busy || !canRedo(history)}>
            <Redo2Icon aria-hidden="true" />
            Redo
          </Button>
          <span className="ml-auto text-xs text-muted-foreground" aria-live="polite" data-testid="history-step">
            {hasImage ? `${current!.label} · step ${history.index + 1} of ${history.entries.length}` : ''}
          </span>
        </div>

        <div className="grid grid-cols-3 gap-2">
          <Button onClick={() => void onSave()} disabled={busy}>
            <PendingIcon pending={pending === 'save'}><SaveIcon aria-hidden="true" /></PendingIcon>
            Save
          </Button>
          <Button variant="outline" onClick={() => setShareOpen(true)} disabled={!hasImage}>
            <Share2Icon aria-hidden="true" />
            Share
          </Button>
          <Button variant="outline" onClick={() => void onDownload()} disabled={busy}>
            <PendingIcon pending={pending === 'download'}><DownloadIcon aria-hidden="true" /></PendingIcon>
            Download
          </Button>
        </div>

        {score ? (
          <p className="rounded-2xl bg-brand-50 p-3 text-center text-sm text-brand-700" data-testid="editor-score">
            Score <span className="font-extrabold">{score.score.toFixed(1)}/10</span> · {score.label}
          </p>
        ) : null}
      </section>

      <aside aria-label="Editing tools" className="rounded-3xl border bg-card p-5 shadow-sm">
        <div className="mb-4 flex items-center justify-between gap-2">
          <h2 className="font-bold">Tools</h2>
          <EditsRemainingPill allowance={allowance} />
        </div>
        {allowance.out ? <OutOfEditsNotice className="mb-4" /> : null}
        <Tabs defaultValue="ai">
          <TabsList>
            <TabsTrigger value="ai">
              <SparklesIcon aria-hidden="true" className="mr-1 inline size-4" />
              AI Tools
            </TabsTrigger>
            <TabsTrigger value="adjust">
              <SlidersHorizontalIcon aria-hidden="true" className="mr-1 inline size-4" />
              Adjust
            </TabsTrigger>
          </TabsList>
          <TabsContent value="ai" className="grid gap-5">
            <div className="grid grid-cols-3 gap-2">
              {editorQuickEdits.map((quick) => (
                <Button key={quick.label} variant="outline" size="sm" disabled={editDisabled} onClick={() => void runEdit(quick.label, quick.prompt, quick.kind)}>
                  <PendingIcon pending={pending === quick.label} />
                  {quick.label}
                </Button>
              ))}
            </div>
            <ChoiceRow
              id={`${ids}-background`}
              label="Background"
              value={backdrop}
              onChange={setBackdrop}
              options={editorBackgrounds}
              disabled={editDisabled}
              pending={pending === 'Background'}
              onApply={() => {
                const choice = editorBackgrounds.find((option) => option.value === backdrop)!;
                void runEdit('Background', choice.prompt, 'edit');
              }}
            />
            <ChoiceRow
              id={`${ids}-style`}
              label="Style"
              value={style}
              onChange={setStyle}
              options={editorStyles}
              disabled={editDisabled}
              pending={pending === 'Style'}
              icon={<PaletteIcon aria-hidden="true" />}
              onApply={() => {
                const choice = editorStyles.find((option) => option.value === style)!;
                void runEdit('Style', choice.prompt, 'edit');
              }}
            />
            <form
              className="grid gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                void runEdit('Custom', prompt, promptKind(prompt));
              }}
            >
              <Label htmlFor={`${ids}-prompt`}>Custom edit</Label>
              <PromptTextarea
                id={`${ids}-prompt`}
                value={prompt}
                rows={2}
                maxLength={500}
                onChange={(event) => setPrompt(event.target.value)}
                onSubmitPrompt={() => void runEdit('Custom', prompt, promptKind(prompt))}
                placeholder="e.g. warm the colours and sharpen"
                disabled={allowance.out}
              />
              <Button type="submit" variant="secondary" disabled={editDisabled || prompt.trim().length === 0}>
                <PendingIcon pending={pending === 'Custom'}><WandSparklesIcon aria-hidden="true" /></PendingIcon>
                Apply Custom Edit
              </Button>
            </form>
          </TabsContent>
          <TabsContent value="adjust">
            <AdjustmentSliders value={adjustments} onChange={setAdjustments} onReset={() => setAdjustments(DEFAULT_ADJUSTMENTS)} disabled={!hasImage || busy} />
          </TabsContent>
        </Tabs>
      </aside>

      <Dialog open={shareOpen} onOpenChange={setShareOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Share Your Edit</DialogTitle>
            <DialogDescription>Tell your friends about your AI-edited photo.</DialogDescription>
          </DialogHeader>
          <SharePanel bare heading="Share your edit" content={{ title: 'My AI-edited photo', text: editShareText(site), url: site }} />
        </DialogContent>
      </Dialog>
    </div>
  );
}

function ChoiceRow({
  id,
  label,
  value,
  onChange,
  options,
  disabled,
  pending,
  onApply,
  icon,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  disabled: boolean;
  pending: boolean;
  onApply: () => void;
  icon?: React.ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <div className="flex gap-2">
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className="h-9 min-w-0 flex-1 cursor-pointer rounded-full border bg-card px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <Button size="sm" variant="outline" disabled={disabled} onClick={onApply} aria-label={`Apply ${label}`}>
          <PendingIcon pending={pending}>{icon ?? <WandSparklesIcon aria-hidden="true" />}</PendingIcon>
          Apply
        </Button>
      </div>
    </div>
  );
}
