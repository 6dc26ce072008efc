import { drawImageCover, roundedRectPath } from '@/lib/image';
import { petScoreSentence } from './pet-title';

export const PET_CARD_WIDTH = 600;
export const PET_CARD_HEIGHT = 1000;

export function petCardFileName(score: number): string {
  return `prettyscore-pet-${score}.png`;
}

const FONT = "'Inter Variable', Inter, system-ui, sans-serif";

/** The pet's share card: the photo, the score out of 10, the title and the sentence. */
export function drawPetCard(
  canvas: HTMLCanvasElement,
  content: { photo: CanvasImageSource & { width: number; height: number }; score: number; title: string; site: string },
): void {
  canvas.width = PET_CARD_WIDTH;
  canvas.height = PET_CARD_HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas');

  const background = ctx.createLinearGradient(0, 0, PET_CARD_WIDTH, PET_CARD_HEIGHT);
  background.addColorStop(0, '#f59e0b');
  background.addColorStop(1, '#db2777');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, PET_CARD_WIDTH, PET_CARD_HEIGHT);

  ctx.textAlign = 'center';
  ctx.fillStyle = '#ffffff';
  ctx.font = `800 32px ${FONT}`;
  ctx.fillText('Pet Cuteness Score', PET_CARD_WIDTH / 2, 64);

  const size = 460;
  const px = (PET_CARD_WIDTH - size) / 2;
  const py = 100;
  ctx.save();
  roundedRectPath(ctx, px - 6, py - 6, size + 12, size + 12, 32);
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fill();
  roundedRectPath(ctx, px, py, size, size, 26);
  ctx.clip();
  drawImageCover(ctx, content.photo, px, py, size, size);
  ctx.restore();

  ctx.fillStyle = '#ffffff';
  ctx.font = `900 150px ${FONT}`;
  ctx.fillText(String(content.score), PET_CARD_WIDTH / 2, 735);
  ctx.font = `700 30px ${FONT}`;
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fillText('out of 10', PET_CARD_WIDTH / 2, 780);
  ctx.fillStyle = '#ffffff';
  ctx.font = `800 44px ${FONT}`;
  ctx.fillText(content.title, PET_CARD_WIDTH / 2, 850, PET_CARD_WIDTH - 60);
  ctx.font = `500 22px ${FONT}`;
  ctx.fillText(petScoreSentence(content.score), PET_CARD_WIDTH / 2, 900, PET_CARD_WIDTH - 60);
  ctx.font = `600 20px ${FONT}`;
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fillText(`Score your pet at ${content.site}`, PET_CARD_WIDTH / 2, 962, PET_CARD_WIDTH - 40);
}
