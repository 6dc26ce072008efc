import { InfoIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { Photo } from '@/resources/photos/photos';
import { ListingStatus } from './listing-status';
import { cardSubScores, subScoreColumns, displayImage, outOfTen, photoDate } from '../utils/photo-display';

type PhotoCardProps = {
  photo: Photo;
  /** The card itself opens the photo in /editor. */
  onOpen: (photo: Photo) => void;
  onDetails: (photo: Photo) => void;
};

/** A saved photo: square image, 'n/10' badge, label, date and its type's sub-scores. */
export function PhotoCard({ photo, onOpen, onDetails }: PhotoCardProps) {
  const date = photoDate(photo.created_at);
  const subScores = cardSubScores(photo);
  return (
    <li
      className="group relative overflow-hidden rounded-3xl border bg-card shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-lg"
      data-testid="photo-card"
    >
      <div className="relative aspect-square overflow-hidden bg-muted">
        <img
          src={displayImage(photo)}
          alt=""
          loading="lazy"
          className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
        />
        <span className="brand-gradient-strong absolute top-3 left-3 rounded-full px-3 py-1 text-sm font-bold text-white shadow-md" data-testid="photo-score">
          {outOfTen(photo.score)}
        </span>
        {photo.edited_image_url ? (
          <span className="absolute bottom-3 left-3 rounded-full bg-black/60 px-2.5 py-0.5 text-xs font-semibold text-white">Edited</span>
        ) : null}
      </div>
      <div className="p-4">
        <div className="flex items-baseline justify-between gap-2">
          <p className="font-bold text-brand-700">{photo.rating_label}</p>
          <p className="text-xs text-muted-foreground">{date}</p>
        </div>
        <dl className={`mt-3 grid ${subScoreColumns(subScores.length)} gap-2 text-center`}>
          {subScores.map((item) => (
            <div key={item.key} className="rounded-xl bg-muted px-1 py-2">
              <dt className="text-[0.7rem] leading-tight font-medium text-muted-foreground">{item.label}</dt>
              <dd className="text-sm font-bold">{outOfTen(item.value)}</dd>
            </div>
          ))}
        </dl>
        <ListingStatus photo={photo} />
      </div>
      {/* The whole card opens the editor; the details button sits above it. */}
      <button
        type="button"
        onClick={() => onOpen(photo)}
        className="absolute inset-0 cursor-pointer outline-none"
        aria-label={`Edit your ${outOfTen(photo.score)} photo from ${date} in the editor`}
      />
      <Button
        variant="outline"
        size="icon-sm"
        className="absolute top-3 right-3 z-10 bg-white/90 backdrop-blur"
        onClick={() => onDetails(photo)}
        aria-label={`Details of your ${outOfTen(photo.score)} photo from ${date}`}
      >
        <InfoIcon aria-hidden="true" />
      </Button>
    </li>
  );
}
