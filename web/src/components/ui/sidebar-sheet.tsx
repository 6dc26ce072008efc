import type { CSSProperties, ReactNode } from 'react';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';

type SidebarSheetProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  width: string;
  label: string;
  description: string;
  mobileHeader?: ReactNode;
  children: ReactNode;
};

/**
 * The sidebar on a phone: its content in a sheet (Radix Dialog). A module of
 * its own, loaded by sidebar.tsx only on a phone, so the dialog code stays out
 * of the first load.
 */
export default function SidebarSheet({ open, onOpenChange, width, label, description, mobileHeader, children }: SidebarSheetProps) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        side="left"
        data-slot="sidebar"
        data-mobile="true"
        style={{ width } as CSSProperties}
        className="max-w-[85vw] p-0"
      >
        <div className="flex h-16 items-center border-b border-sidebar-border px-4 pr-14">
          {mobileHeader}
          <SheetTitle className={mobileHeader ? 'sr-only' : 'text-base'}>{label}</SheetTitle>
          <SheetDescription className="sr-only">{description}</SheetDescription>
        </div>
        <nav aria-label={label} className="flex min-h-0 flex-1 flex-col overflow-y-auto">
          {children}
        </nav>
      </SheetContent>
    </Sheet>
  );
}
