import { CARD_FONT as FONT, drawFramedPhoto, startCard } from '@/lib/image';
import { petScoreSentence } from './pet-title';

export const PET_CARD_WIDTH = 600;
export const PET_CARD_HEIGHT = 1000;

export function petCardFileName(score: number): string {
  return `prettyscore-pet-${score}.png`;
}

/** The pet's share card: the photo, the score out of 10, the title and the sentence. */
export function drawPetCard(
  canvas: HTMLCanvasElement,
  content: { photo: CanvasImageSource & { width: number; height: number }; score: number; title: string; site: string },
): void {
  const ctx = startCard(canvas, PET_CARD_WIDTH, PET_CARD_HEIGHT, '#f59e0b', '#db2777');
  ctx.fillStyle = '#ffffff';
  ctx.font = `800 32px ${FONT}`;
  ctx.fillText('Pet Cuteness Score', PET_CARD_WIDTH / 2, 64);

  const size = 460;
  const px = (PET_CARD_WIDTH - size) / 2;
  const py = 100;
  drawFramedPhoto(ctx, content.photo, px, py, size, 26);

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
