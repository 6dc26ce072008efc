import type { ReactElement } from 'react';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '@/components/ui/tooltip';

/**
 * The name beside an icon of the collapsed desktop sidebar (Radix Tooltip).
 * A module of its own, loaded by sidebar.tsx only while the sidebar is
 * collapsed, so the tooltip and positioning code stay out of the first load.
 * The sidebar's items are the app's only tooltips, so each brings its provider.
 */
export default function SidebarTooltip({ label, children }: { label: string; children: ReactElement }) {
  return (
    <TooltipProvider>
      <Tooltip>
        <TooltipTrigger asChild>{children}</TooltipTrigger>
        <TooltipContent side="right" align="center">
          {label}
        </TooltipContent>
      </Tooltip>
    </TooltipProvider>
  );
}
