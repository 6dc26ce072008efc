import { CARD_FONT as FONT, drawFramedPhoto, roundedRectPath, startCard } from '@/lib/image';
import { breakdownItems, formatOutOfTen } from './breakdown';
import { formatScore } from './rating';
import type { FaceBreakdown } from '../types';

/** The spec's share card: 600 x 1000 pixels. */
export const CARD_WIDTH = 600;
export const CARD_HEIGHT = 1000;

export function resultCardFileName(score: number): string {
  return `prettyscore-${formatScore(score)}.png`;
}

export type ResultCardContent = {
  photo: CanvasImageSource & { width: number; height: number };
  score: number;
  label: string;
  breakdown: FaceBreakdown;
  site: string;
};

/** Draws the downloadable result card: the photo, the score, its label and the breakdown. */
export function drawResultCard(canvas: HTMLCanvasElement, content: ResultCardContent): void {
  const ctx = startCard(canvas, CARD_WIDTH, CARD_HEIGHT, '#db2777', '#7e22ce');
  ctx.fillStyle = '#ffffff';
  ctx.font = `800 34px ${FONT}`;
  ctx.fillText('PrettyScore', CARD_WIDTH / 2, 62);

  // The photo, cropped square with rounded corners and a white frame.
  const size = 400;
  const px = (CARD_WIDTH - size) / 2;
  const py = 90;
  drawFramedPhoto(ctx, content.photo, px, py, size, 24);

  // The score and its label.
  ctx.fillStyle = '#ffffff';
  ctx.font = `900 104px ${FONT}`;
  const score = formatScore(content.score);
  const scoreWidth = ctx.measureText(score).width;
  ctx.font = `700 40px ${FONT}`;
  const suffixWidth = ctx.measureText('/10').width;
  const left = (CARD_WIDTH - scoreWidth - suffixWidth) / 2;
  ctx.textAlign = 'left';
  ctx.font = `900 104px ${FONT}`;
  ctx.fillText(score, left, 608);
  ctx.font = `700 40px ${FONT}`;
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillText('/10', left + scoreWidth + 4, 608);
  ctx.textAlign = 'center';
  ctx.fillStyle = '#ffffff';
  ctx.font = `800 34px ${FONT}`;
  ctx.fillText(content.label, CARD_WIDTH / 2, 660, CARD_WIDTH - 60);

  // The breakdown on a white panel.
  const panelX = 50;
  const panelY = 690;
  const panelW = CARD_WIDTH - 100;
  roundedRectPath(ctx, panelX, panelY, panelW, 236, 24);
  ctx.fillStyle = 'rgba(255,255,255,0.95)';
  ctx.fill();
  breakdownItems(content.breakdown).forEach((item, index) => {
    const y = panelY + 44 + index * 52;
    ctx.textAlign = 'left';
    ctx.fillStyle = '#3b0764';
    ctx.font = `600 20px ${FONT}`;
    ctx.fillText(item.label, panelX + 24, y);
    ctx.textAlign = 'right';
    ctx.font = `800 20px ${FONT}`;
    ctx.fillText(formatOutOfTen(item.value), panelX + panelW - 24, y);
    const barX = panelX + 24;
    const barW = panelW - 48;
    roundedRectPath(ctx, barX, y + 10, barW, 10, 5);
    ctx.fillStyle = '#f3e8ff';
    ctx.fill();
    const filled = Math.max(0, Math.min(1, item.value / 10)) * barW;
    if (filled > 0) {
      roundedRectPath(ctx, barX, y + 10, filled, 10, 5);
      const bar = ctx.createLinearGradient(barX, 0, barX + barW, 0);
      bar.addColorStop(0, '#db2777');
      bar.addColorStop(1, '#9333ea');
      ctx.fillStyle = bar;
      ctx.fill();
    }
  });

  ctx.textAlign = 'center';
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.font = `600 20px ${FONT}`;
  ctx.fillText(`Get your score at ${content.site}`, CARD_WIDTH / 2, 966, CARD_WIDTH - 40);
}
