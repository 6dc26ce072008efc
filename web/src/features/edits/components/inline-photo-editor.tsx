import { DownloadIcon, PencilIcon, Redo2Icon, Undo2Icon, WandSparklesIcon } from 'lucide-react';
import { useId, useReducer, useState } from 'react';
import { photoDownloadName } from '@/components/download-photo-button';
import { SharePanel } from '@/components/share-panel';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { downloadImageUrl } from '@/lib/image';
import { toast } from '@/lib/toast';
import { useEditPhoto } from '@/resources/edits/edit-photo';
import { useEditAllowance } from '@/resources/edits/get-edits-quota';
import { useUpdateEditedImage } from '@/resources/photos/photos';
import { editErrorMessage, refuseEdit } from '../utils/edit-errors';
import {
  DASHBOARD_EDIT_SUCCESS,
  DOWNLOAD_FAILED,
  editShareText,
  NO_PHOTO_TO_DOWNLOAD,
  NOTHING_TO_UNDO,
  PHOTO_DOWNLOADED,
  UNDO_FAILED,
  UNDO_SUCCESS,
} from '../utils/edit-messages';
import { downloadHdVersion } from '../utils/hd-download';
import { canUndo, currentEntry, historyReducer, isEdited, lastPrompt, originalEntry, startHistory } from '../utils/history';
import { builtInAlternatives, dashboardTabs, GENERATIVE_ONLY_NOTE, GENERATIVE_ONLY_REASON, type EditPreset } from '../utils/presets';
import { BeforeAfterSlider, BusyOverlay } from './before-after-slider';
import { PendingIcon } from './edit-controls';
import { EditsRemainingPill, OutOfEditsNotice } from './edits-remaining';

type InlinePhotoEditorProps = {
  photoId: string;
  originalUrl: string;
  /** The photo's latest edit, if it has one: the history starts there. */
  editedUrl?: string | null;
  /** Download names: `{fileBase}-edited` / `{fileBase}-original`. */
  fileBase: string;
};

/**
 * The Photo Details dialog's AI editor (docs/spec-rules.md §2 and §4):
 * Background, Hair and Outfit presets and a custom prompt; after an edit,
 * the before/after with Download, Undo, Redo, Edit Again, Download HD
 * Version and four share buttons. Each edit is written to the photo by the
 * server (photoId); Undo writes the previous image back; Redo runs the last
 * prompt again.
 */
export function InlinePhotoEditor({ photoId, originalUrl, editedUrl, fileBase }: InlinePhotoEditorProps) {
  const [history, dispatch] = useReducer(historyReducer, null, () => {
    const start = startHistory(originalUrl);
    return editedUrl ? historyReducer(start, { type: 'append', entry: { imageUrl: editedUrl, label: 'Latest edit' } }) : start;
  });
  const [view, setView] = useState<'edit' | 'result'>('edit');
  const [prompt, setPrompt] = useState('');
  const [downloading, setDownloading] = useState<'plain' | 'hd' | null>(null);
  const promptId = useId();
  const noteId = useId();
  const allowance = useEditAllowance();
  const edit = useEditPhoto();
  const persist = useUpdateEditedImage();
  const busy = edit.isPending || persist.isPending;
  const current = currentEntry(history);
  const edited = isEdited(history);

  function run(preset: Pick<EditPreset, 'prompt' | 'label'>) {
    if (refuseEdit({ busy, out: allowance.out, prompt: preset.prompt })) return;
    const text = preset.prompt.trim();
    edit.mutate(
      { imageUrl: current.imageUrl, prompt: text, photoId },
      {
        onSuccess: (result) => {
          dispatch({ type: 'append', entry: { imageUrl: result.editedImageUrl, prompt: text, label: preset.label } });
          setView('result');
          setPrompt('');
          toast.success(DASHBOARD_EDIT_SUCCESS);
        },
        onError: (error) => toast.error(editErrorMessage(error)),
      },
    );
  }

  function undo() {
    if (busy) return;
    if (!canUndo(history)) {
      toast.error(NOTHING_TO_UNDO);
      return;
    }
    const previous = history.entries[history.index - 1]!;
    // Back at the original, the photo has no edited image any more.
    const editedImageUrl = history.index - 1 === 0 ? null : previous.imageUrl;
    persist.mutate(
      { id: photoId, editedImageUrl },
      {
        onSuccess: () => {
          dispatch({ type: 'undo' });
          toast.success(UNDO_SUCCESS);
        },
        onError: () => toast.error(UNDO_FAILED),
      },
    );
  }

  function redo() {
    const again = lastPrompt(history);
    if (!again) {
      toast.error('No edits to redo');
      return;
    }
    run({ prompt: again, label: 'Redo' });
  }

  async function download(kind: 'plain' | 'hd') {
    if (!current.imageUrl) {
      toast.error(NO_PHOTO_TO_DOWNLOAD);
      return;
    }
    setDownloading(kind);
    const base = photoDownloadName(fileBase, edited);
    try {
      if (kind === 'hd') await downloadHdVersion(current.imageUrl, base);
      else await downloadImageUrl(current.imageUrl, base);
      toast.success(PHOTO_DOWNLOADED);
    } catch {
      toast.error(DOWNLOAD_FAILED);
    } finally {
      setDownloading(null);
    }
  }

  const shareUrl = window.location.origin;
  const header = (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h3 className="flex items-center gap-2 font-bold">
        <WandSparklesIcon aria-hidden="true" className="size-4 text-brand-700" />
        AI Photo Editor
      </h3>
      <EditsRemainingPill allowance={allowance} />
    </div>
  );

  if (view === 'result') {
    return (
      <div className="grid gap-4" data-testid="inline-editor">
        {header}
        <BeforeAfterSlider before={originalEntry(history).imageUrl} after={current.imageUrl} busy={busy} className="mx-auto w-full max-w-md" />
        <p className="text-center text-xs text-muted-foreground" aria-live="polite">
          {edited ? `Showing: ${current.label}` : 'Showing: Original'} · step {history.index + 1} of {history.entries.length}
        </p>
        {allowance.out ? <OutOfEditsNotice /> : null}
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          <Button variant="outline" onClick={() => void download('plain')} disabled={downloading !== null}>
            <PendingIcon pending={downloading === 'plain'}><DownloadIcon aria-hidden="true" /></PendingIcon>
            Download
          </Button>
          <Button variant="outline" onClick={undo} disabled={busy}>
            <Undo2Icon aria-hidden="true" />
            Undo
          </Button>
          <Button variant="outline" onClick={redo} disabled={busy || allowance.out}>
            <Redo2Icon aria-hidden="true" />
            Redo
          </Button>
          <Button variant="secondary" onClick={() => setView('edit')} disabled={busy}>
            <PencilIcon aria-hidden="true" />
            Edit Again
          </Button>
        </div>
        <Button onClick={() => void download('hd')} disabled={downloading !== null}>
          <PendingIcon pending={downloading === 'hd'}><DownloadIcon aria-hidden="true" /></PendingIcon>
          Download HD Version
        </Button>
        <SharePanel
          bare
          heading="Share your edit"
          channels={['twitter', 'facebook', 'instagram', 'tiktok']}
          content={{ title: 'My AI-edited photo', text: editShareText(shareUrl), url: shareUrl }}
        />
      </div>
    );
  }

  const blank = prompt.trim().length === 0;
  return (
    <div className="grid gap-4" data-testid="inline-editor">
      {header}
      <div className="relative mx-auto w-full max-w-md overflow-hidden rounded-2xl border">
        <img src={current.imageUrl} alt="The photo you are editing" className="aspect-square w-full object-cover" />
        {busy ? <BusyOverlay /> : null}
      </div>
      {allowance.out ? <OutOfEditsNotice /> : null}
      <Tabs defaultValue="background">
        <TabsList>
          {dashboardTabs.map((tab) => (
            <TabsTrigger key={tab.value} value={tab.value}>
              {tab.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {dashboardTabs.map((tab) => {
          const needsGenerative = tab.presets.some((preset) => preset.generative) && !allowance.generative;
          return (
            <TabsContent key={tab.value} value={tab.value} className="mt-3">
              <ul className="grid grid-cols-2 gap-2">
                {tab.presets.map((preset) => {
                  const unavailable = Boolean(preset.generative) && !allowance.generative;
                  const reasonId = `${noteId}-${tab.value}-${preset.label.replaceAll(' ', '-')}`;
                  return (
                    <li key={preset.label} className="grid content-start gap-1">
                      <Button
                        variant="outline"
                        // Half of a phone's dialog is about 145 px: less padding, and a long label wraps rather than overflows.
                        className="h-auto min-h-10 w-full whitespace-normal px-3 py-2 leading-tight"
                        disabled={busy || allowance.out || unavailable}
                        aria-describedby={unavailable ? reasonId : undefined}
                        onClick={() => run(preset)}
                      >
                        {preset.label}
                      </Button>
                      {unavailable ? (
                        <p id={reasonId} className="text-center text-xs text-muted-foreground">
                          {GENERATIVE_ONLY_REASON}
                        </p>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
              {needsGenerative ? (
                <section aria-labelledby={`${noteId}-${tab.value}`} className="mt-3 rounded-xl bg-muted p-3" data-testid="built-in-alternatives">
                  <p id={`${noteId}-${tab.value}`} className="text-xs text-muted-foreground">
                    {GENERATIVE_ONLY_NOTE}
                  </p>
                  <ul className="mt-2 flex flex-wrap gap-1.5">
                    {builtInAlternatives.map((preset) => (
                      <li key={preset.label}>
                        <Button size="sm" variant="secondary" className="px-3" disabled={busy || allowance.out} onClick={() => run(preset)}>
                          {preset.label}
                        </Button>
                      </li>
                    ))}
                  </ul>
                </section>
              ) : null}
            </TabsContent>
          );
        })}
      </Tabs>
      <form
        className="grid gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!blank) run({ prompt, label: prompt.trim() });
        }}
      >
        <Label htmlFor={promptId}>Custom prompt</Label>
        <div className="flex gap-2">
          <Input
            id={promptId}
            value={prompt}
            onChange={(event) => setPrompt(event.target.value)}
            placeholder="e.g. warm the colours and blur the background"
            maxLength={500}
            disabled={allowance.out}
          />
          <Button type="submit" disabled={blank || busy || allowance.out}>
            <PendingIcon pending={edit.isPending}><WandSparklesIcon aria-hidden="true" /></PendingIcon>
            Edit
          </Button>
        </div>
      </form>
      {history.entries.length > 1 ? (
        <Button variant="ghost" size="sm" className="justify-self-center" onClick={() => setView('result')}>
          Show Before / After
        </Button>
      ) : null}
    </div>
  );
}
