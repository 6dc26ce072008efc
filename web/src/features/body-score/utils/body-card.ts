import { CARD_FONT as FONT, drawFramedPhoto, startCard } from '@/lib/image';

/** The spec's result card for feet and hands: 600 x 800. */
export const BODY_CARD_WIDTH = 600;
export const BODY_CARD_HEIGHT = 800;

export function bodyCardFileName(kind: string, score: number): string {
  return `prettyscore-${kind}-${score.toFixed(1)}.png`;
}

type BodyCard = {
  photo: CanvasImageSource & { width: number; height: number };
  title: string;
  score: number;
  label: string;
  site: string;
};

/** The card: the title, the photo, the score out of 10 and its label, and where to get one. */
export function drawBodyCard(canvas: HTMLCanvasElement, card: BodyCard): void {
  const ctx = startCard(canvas, BODY_CARD_WIDTH, BODY_CARD_HEIGHT, '#db2777', '#7c3aed');
  ctx.fillStyle = '#ffffff';
  ctx.font = `800 34px ${FONT}`;
  ctx.fillText(card.title, BODY_CARD_WIDTH / 2, 62, BODY_CARD_WIDTH - 40);

  const size = 400;
  const px = (BODY_CARD_WIDTH - size) / 2;
  const py = 96;
  drawFramedPhoto(ctx, card.photo, px, py, size, 26);

  ctx.fillStyle = '#ffffff';
  ctx.font = `900 110px ${FONT}`;
  ctx.fillText(card.score.toFixed(1), BODY_CARD_WIDTH / 2, 625);
  ctx.font = `700 26px ${FONT}`;
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fillText('out of 10', BODY_CARD_WIDTH / 2, 665);
  ctx.fillStyle = '#ffffff';
  ctx.font = `800 40px ${FONT}`;
  ctx.fillText(card.label, BODY_CARD_WIDTH / 2, 722, BODY_CARD_WIDTH - 60);
  ctx.font = `600 20px ${FONT}`;
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fillText(`Just for fun · ${card.site}`, BODY_CARD_WIDTH / 2, 772, BODY_CARD_WIDTH - 40);
}
