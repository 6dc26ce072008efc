import { useEffect, useRef, useState } from 'react';

/** Confetti lasts 3 s (spec: face, feet and hands results). */
export const CONFETTI_DURATION_MS = 3000;
export const CONFETTI_PARTICLES = 50;

/**
 * A score of 8.5 or more (out of 10) celebrates with confetti. Compared in
 * tenths, rounded, so 0.85 * 10 still counts as 8.5.
 */
export function showsConfetti(score: number): boolean {
  return Math.round(score * 10) >= 85;
}

const colours = ['#ec4899', '#a855f7', '#f59e0b', '#22d3ee', '#f43f5e', '#facc15'];

type Particle = { x: number; y: number; vx: number; vy: number; size: number; spin: number; angle: number; colour: string };

/**
 * A 3-second burst of 50 confetti pieces drawn on our own canvas: fixed over
 * the page, hidden from assistive technology, letting every click through.
 * Nothing is drawn for people who prefer reduced motion.
 */
export function Confetti({
  particles = CONFETTI_PARTICLES,
  durationMs = CONFETTI_DURATION_MS,
}: {
  particles?: number;
  durationMs?: number;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
      const timer = window.setTimeout(() => setDone(true), 0);
      return () => window.clearTimeout(timer);
    }

    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const width = window.innerWidth;
    const height = window.innerHeight;
    canvas.width = width * dpr;
    canvas.height = height * dpr;
    ctx.scale(dpr, dpr);

    const pieces: Particle[] = Array.from({ length: particles }, (_, index) => {
      const fromLeft = index % 2 === 0;
      const angle = (fromLeft ? -60 : -120) + (Math.random() - 0.5) * 50;
      const speed = 9 + Math.random() * 7;
      return {
        x: fromLeft ? width * 0.15 : width * 0.85,
        y: height * 0.75,
        vx: Math.cos((angle * Math.PI) / 180) * speed,
        vy: Math.sin((angle * Math.PI) / 180) * speed,
        size: 6 + Math.random() * 6,
        spin: (Math.random() - 0.5) * 0.3,
        angle: Math.random() * Math.PI,
        colour: colours[index % colours.length]!,
      };
    });

    const started = performance.now();
    let frame = 0;
    const tick = (now: number) => {
      const t = now - started;
      ctx.clearRect(0, 0, width, height);
      if (t >= durationMs) {
        setDone(true);
        return;
      }
      ctx.globalAlpha = t > durationMs - 600 ? Math.max(0, (durationMs - t) / 600) : 1;
      for (const p of pieces) {
        p.vy += 0.25;
        p.vx *= 0.99;
        p.x += p.vx;
        p.y += p.vy;
        p.angle += p.spin;
        ctx.save();
        ctx.translate(p.x, p.y);
        ctx.rotate(p.angle);
        ctx.fillStyle = p.colour;
        ctx.fillRect(-p.size / 2, -p.size / 4, p.size, p.size / 2);
        ctx.restore();
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [particles, durationMs]);

  if (done) return null;
  return (
    <canvas
      ref={canvasRef}
      aria-hidden="true"
      data-testid="confetti"
      className="pointer-events-none fixed inset-0 z-40 size-full"
    />
  );
}
