import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export function Skeleton({ className, ...props }: ComponentProps<'span'>) {
  return (
    <span
      data-slot="skeleton"
      className={cn('inline-block animate-pulse rounded-md bg-muted', className)}
      {...props}
    />
  );
}
