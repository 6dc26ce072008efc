import { Progress as ProgressPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/**
 * A progress bar (Radix Progress). With no `value` it is indeterminate: a
 * full, pulsing bar while work of unknown length runs.
 */
export function Progress({
  className,
  value,
  indicatorClassName,
  ...props
}: ComponentProps<typeof ProgressPrimitive.Root> & { indicatorClassName?: string }) {
  const indeterminate = value === null || value === undefined;
  return (
    <ProgressPrimitive.Root
      data-slot="progress"
      value={value}
      className={cn('relative h-2.5 w-full overflow-hidden rounded-full bg-brand-100', className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        className={cn(
          'brand-gradient h-full rounded-full transition-transform',
          indeterminate ? 'w-full animate-pulse' : 'w-full',
          indicatorClassName,
        )}
        style={indeterminate ? undefined : { transform: `translateX(-${100 - (value ?? 0)}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
