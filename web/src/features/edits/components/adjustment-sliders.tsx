import { RotateCcwIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import type { Adjustments } from '@/resources/edits/types';
import { clampSlider, formatSlider, isDefaultAdjustments, sliders } from '../utils/adjustments';

type AdjustmentSlidersProps = {
  value: Adjustments;
  onChange: (value: Adjustments) => void;
  onReset: () => void;
  disabled?: boolean;
};

/** Brightness, contrast, saturation (0-200 %) and blur (0-10 px, 0.1 steps): native range inputs. */
export function AdjustmentSliders({ value, onChange, onReset, disabled = false }: AdjustmentSlidersProps) {
  const id = useId();
  return (
    <div className="grid gap-5" data-testid="adjustments">
      {sliders.map((spec) => (
        <div key={spec.key} className="grid gap-2">
          <div className="flex items-center justify-between text-sm">
            <label htmlFor={`${id}-${spec.key}`} className="font-semibold">
              {spec.label}
            </label>
            <output htmlFor={`${id}-${spec.key}`} className="font-mono text-xs text-muted-foreground" data-testid={`${spec.key}-value`}>
              {formatSlider(spec, value[spec.key])}
            </output>
          </div>
          <input
            id={`${id}-${spec.key}`}
            type="range"
            min={spec.min}
            max={spec.max}
            step={spec.step}
            value={value[spec.key]}
            disabled={disabled}
            aria-valuetext={formatSlider(spec, value[spec.key])}
            onChange={(event) => onChange({ ...value, [spec.key]: clampSlider(spec, Number(event.target.value)) })}
            className="h-2 w-full cursor-pointer accent-brand-600 disabled:cursor-not-allowed"
          />
        </div>
      ))}
      <Button variant="ghost" size="sm" onClick={onReset} disabled={disabled || isDefaultAdjustments(value)} className="justify-self-start">
        <RotateCcwIcon aria-hidden="true" />
        Reset Adjustments
      </Button>
      <p className="text-xs text-muted-foreground">
        The preview is live. The adjustments are applied to the photo itself when you save, download or run the next AI edit.
      </p>
    </div>
  );
}
