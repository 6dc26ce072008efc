import { formatScore } from '../utils/rating';

type ScoreCircleProps = { score: number; label: string; emoji?: string };

/** The score in a ring filled to score / 10, with the tier label and its emoji. */
export function ScoreCircle({ score, label, emoji }: ScoreCircleProps) {
  const radius = 54;
  const circumference = 2 * Math.PI * radius;
  const filled = Math.max(0, Math.min(1, score / 10)) * circumference;
  return (
    <div className="flex flex-col items-center text-center" data-testid="score-circle">
      <div className="relative size-44 sm:size-52">
        <svg viewBox="0 0 120 120" className="size-full -rotate-90" aria-hidden="true">
          <defs>
            <linearGradient id="score-ring" x1="0" y1="0" x2="1" y2="1">
              <stop offset="0%" stopColor="var(--color-brand-600)" />
              <stop offset="100%" stopColor="var(--color-accent-600)" />
            </linearGradient>
          </defs>
          <circle cx="60" cy="60" r={radius} fill="none" stroke="var(--color-brand-100)" strokeWidth="10" />
          <circle
            cx="60"
            cy="60"
            r={radius}
            fill="none"
            stroke="url(#score-ring)"
            strokeWidth="10"
            strokeLinecap="round"
            strokeDasharray={`${filled} ${circumference}`}
          />
        </svg>
        <p className="absolute inset-0 grid place-content-center">
          <span className="sr-only">Your score: </span>
          <span className="text-5xl font-black tracking-tight sm:text-6xl" data-testid="score-value">
            {formatScore(score)}
          </span>
          <span className="text-sm font-semibold text-muted-foreground">out of 10</span>
        </p>
      </div>
      <p className="mt-3 flex items-center gap-2 text-xl font-extrabold text-brand-700 sm:text-2xl" data-testid="score-label">
        {emoji ? <span aria-hidden="true">{emoji}</span> : null}
        <span>{label}</span>
      </p>
    </div>
  );
}
